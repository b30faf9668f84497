module {
  func.func @f(%arg0: !ptr.ptr<#ptr.generic_space>, %arg1: memref<f32, #ptr.generic_space>, %arg2: i32) {
    %0 = ptr.load %arg0 : !ptr.ptr<#ptr.generic_space> -> f32
    %1 = ptr.load volatile %arg0 nontemporal invariant_group alignment = 16 : !ptr.ptr<#ptr.generic_space> -> f32
    %2 = ptr.load %arg0 atomic syncscope("agent") seq_cst invariant alignment = 8 : !ptr.ptr<#ptr.generic_space> -> i32
    ptr.store volatile %arg2, %arg0 atomic unordered alignment = 4 : i32, !ptr.ptr<#ptr.generic_space>
    ptr.store %arg2, %arg0 : i32, !ptr.ptr<#ptr.generic_space>
    %3 = ptr.to_ptr %arg1 : memref<f32, #ptr.generic_space> -> <#ptr.generic_space>
    %4 = ptr.get_metadata %arg1 : memref<f32, #ptr.generic_space>
    %5 = ptr.from_ptr %3 metadata %4 : <#ptr.generic_space> -> memref<f32, #ptr.generic_space>
    return
  }
}
