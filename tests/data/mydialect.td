// A small made-up dialect for tests/test_models_registry.py: its ops are derived from this file's
// `llvm-tblgen --dump-json` output, exactly like the upstream dialects' models.

include "mlir/IR/OpBase.td"
include "mlir/IR/Properties.td"

def My_Dialect : Dialect {
  let name = "mydialect";
  let summary = "A dialect that exists only in mlirbc's tests";
  let cppNamespace = "::mydialect";
}

class My_Op<string mnemonic, list<Trait> traits = []> : Op<My_Dialect, mnemonic, traits>;

def My_FooOp : My_Op<"foo", [AttrSizedOperandSegments]> {
  let summary = "Foo with every kind of inherent attribute";
  let description = [{
    Syntax:

    ```
    operation ::= `mydialect.foo` ...
    ```

    Foo takes two operand groups and several attributes.

    A second paragraph that hover does not show.
  }];
  let arguments = (ins
    Variadic<AnyType>:$inputs,
    Optional<AnyType>:$extra,
    I32Attr:$required_count,
    OptionalAttr<StrAttr>:$label,
    UnitAttr:$fast,
    DefaultValuedAttr<I64Attr, "7">:$Depth,
    Arg<OptionalAttr<BoolAttr>, "a wrapped attribute">:$checked
  );
  let results = (outs AnyType:$out);
}

def My_BarOp : My_Op<"bar", [IsolatedFromAbove]> {
  let summary = "Bar with native properties";
  let arguments = (ins
    BoolAttr:$enabled,
    UnitProp:$marked,
    OptionalProp<I64Prop>:$align,
    I32Prop:$count,
    StringProp:$tag
  );
  let regions = (region AnyRegion:$body);
}

def My_BazOp : My_Op<"baz"> {
  let summary = "Baz has no properties at all";
  let arguments = (ins AnyType:$x);
}

def My_QuxOp : My_Op<"qux"> {
  let summary = "Qux writes its properties with hand-written C++";
  let arguments = (ins I32Attr:$value);
  let useCustomPropertiesEncoding = 1;
}
