module {
  pdl.pattern @p : benefit(1) {
    %0 = attribute
    %1 = types
    %2 = operation "foo.op"  {"a" = %0, "b" = %0} -> (%1 : !pdl.range<type>)
    rewrite %2 with "r"
  }
}
