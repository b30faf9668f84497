module {
  pdl_interp.func @matcher(%arg0: !pdl.operation) {
    %0 = pdl_interp.get_operand 0 of %arg0
    %1 = pdl_interp.get_value_type of %0 : !pdl.type
    %2 = pdl_interp.get_operands of %arg0 : !pdl.range<value>
    %3 = pdl_interp.get_value_type of %2 : !pdl.range<type>
    pdl_interp.finalize
  }
}
