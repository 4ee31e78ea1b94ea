# How the shim keeps LLVM private. The failure this prevents: with LLVM's
# symbols visible, another LLVM in the process (a system libLLVM loaded
# RTLD_GLOBAL, llvmlite, a framework's copy) and ours bind to each other's
# globals; cl::opt registration then aborts ("Option ... registered more than
# once!") or one copy silently runs the other's code.

set(_llvmplug_cmake_dir "${CMAKE_CURRENT_LIST_DIR}")

function(llvmplug_hide_symbols target)
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    target_compile_options(${target} PRIVATE
      # Our own code: nothing visible unless marked LLVMPLUG_API.
      -fvisibility=hidden -fvisibility-inlines-hidden
      # An STB_GNU_UNIQUE symbol (from inline statics) makes glibc's dlclose
      # a silent no-op, so the shim could never be unloaded to reset LLVM.
      -fno-gnu-unique
      # Let --gc-sections drop the parts of LLVM the shim does not reach.
      -ffunction-sections -fdata-sections)
    target_link_options(${target} PRIVATE
      # The real gate: only llvmplug_* stays global, whatever the archives
      # (LLVM, libstdc++) were compiled with.
      "-Wl,--version-script=${_llvmplug_cmake_dir}/llvmplug.map"
      -Wl,--gc-sections
      # A private C++ runtime: no GLIBCXX_* version needs, and no sharing of
      # libstdc++ state with another C++ library in the process.
      -static-libstdc++ -static-libgcc
      # Fail the link on any undefined symbol instead of at load time.
      -Wl,-z,defs)
  elseif(APPLE)
    target_compile_options(${target} PRIVATE
      -fvisibility=hidden -fvisibility-inlines-hidden)
    target_link_options(${target} PRIVATE
      # Two-level namespaces already keep lookups apart; the list keeps the
      # export table to the ABI (libc++ symbols included) and -dead_strip
      # drops what the shim does not reach.
      "-Wl,-exported_symbols_list,${_llvmplug_cmake_dir}/llvmplug.exports"
      -Wl,-dead_strip)
  elseif(WIN32)
    # A DLL exports only what is marked __declspec(dllexport): the
    # LLVMPLUG_API functions. The CRT must match the LLVM SDK's: every object
    # in mlc-llvm-static's win_amd64 libraries is /MD (RuntimeLibrary=
    # MD_DynamicRelease, /DEFAULTLIB:msvcprt.lib), so a static CRT (/MT)
    # fails to link (LNK2038). The DLL therefore imports the VC++ runtime
    # (msvcp140.dll, vcruntime140*.dll); the wheel repair step vendors it.
    set_property(TARGET ${target} PROPERTY MSVC_RUNTIME_LIBRARY MultiThreadedDLL)
    if(MSVC)
      target_link_options(${target} PRIVATE /OPT:REF /OPT:ICF)
    endif()
  endif()
endfunction()

# Negative control (LLVMPLUG_EXPORT_LLVM_SYMBOLS=ON): the same shim with every
# LLVM symbol exported, used only to show the clash the hidden build avoids.
function(llvmplug_export_symbols target)
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    # LLVM's archives were compiled with default visibility: without the
    # version script every LLVM symbol the shim links lands in .dynsym.
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
  endif()
endfunction()
