# Find LLVM (static libraries with CMake exports, e.g. from mlc-llvm-static)
# and link the shim against only the components it uses.

# LLVMConfigVersion.cmake accepts only an exact major.minor request, so check
# the major version by hand.
find_package(LLVM REQUIRED CONFIG)
message(STATUS "llvmplug: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")
if(NOT LLVM_VERSION_MAJOR EQUAL 23)
  message(FATAL_ERROR "llvmplug is written for LLVM 23, found ${LLVM_PACKAGE_VERSION}")
endif()

if(LLVM_LINK_LLVM_DYLIB OR NOT TARGET LLVMCore)
  message(FATAL_ERROR "llvmplug needs LLVM's static component libraries; "
    "${LLVM_DIR} does not provide them")
endif()

# What the pipeline in csrc/compiler.cpp touches: IR, both IR readers and the
# bitcode writer, the new pass manager's pipelines, codegen, and the native
# target with its assembly printer and parser (for inline assembly).
llvm_map_components_to_libnames(LLVMPLUG_LLVM_LIBRARIES
  core irreader asmparser bitreader bitwriter passes
  codegen asmprinter mc target targetparser support
  native nativecodegen)

function(llvmplug_link_llvm target)
  target_include_directories(${target} SYSTEM PRIVATE ${LLVM_INCLUDE_DIRS})
  separate_arguments(defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
  target_compile_definitions(${target} PRIVATE ${defs})
  target_link_libraries(${target} PRIVATE ${LLVMPLUG_LLVM_LIBRARIES})
  # LLVM is built without RTTI; the shim subclasses LLVM types
  # (DiagnosticHandler), so it must match. It keeps exceptions: the C
  # boundary catches them, and the fatal-error handler throws.
  if(MSVC)
    target_compile_options(${target} PRIVATE /GR- /EHsc)
  else()
    target_compile_options(${target} PRIVATE -fno-rtti -fexceptions)
  endif()
endfunction()
