# Where the shim's hot functions go. LLVM's code is about 70 MiB of text, and
# a fresh copy runs a few thousand functions to start and to compile a small
# module, nearly each on a page of its own: every one a page fault that maps
# 16 pages, each unmapped again at the next reload. Placed together, the
# functions of cmake/hot_text.txt (tools/hot-text lists them) share pages: a
# reload maps about half the pages and faults a third less.
#
# Every LLVM function is in a section of its own (.text.<symbol>; the SDK is
# built with -ffunction-sections), and the linker takes input sections in the
# order its script names them. The script is the linker's own default (what
# `-Wl,--verbose` prints for a shared library), with one input statement per
# listed function at the head of .text: still .text, so debuggers, profilers
# and valgrind (which tools/hot-text runs) see the same sections as before.
# Where that script cannot be had or used (a linker without a printed default
# script, such as lld; another platform), the shim is linked as before.

set(_llvmplug_hot_list "${CMAKE_CURRENT_LIST_DIR}/hot_text.txt")

function(llvmplug_hot_text target)
  if(NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
    return()
  endif()
  set(_skip "llvmplug: hot functions not placed")
  if(NOT EXISTS "${_llvmplug_hot_list}")
    message(STATUS "${_skip}: no ${_llvmplug_hot_list}")
    return()
  endif()
  set(_probe "${CMAKE_CURRENT_BINARY_DIR}/hot_text_probe.so")
  execute_process(
    COMMAND "${CMAKE_CXX_COMPILER}" -shared -fPIC -x c++ /dev/null -o "${_probe}" -Wl,--verbose
    OUTPUT_VARIABLE _verbose ERROR_QUIET RESULT_VARIABLE _failed)
  file(REMOVE "${_probe}")
  # GNU ld prints its script between two rules of '=' (and nothing else does).
  set(_rule "==================================================\n")
  string(FIND "${_verbose}" "${_rule}" _begin)
  string(FIND "${_verbose}" "${_rule}" _end REVERSE)
  set(_head "    *(.text.unlikely .text.*_unlikely .text.unlikely.*)")
  string(FIND "${_verbose}" "${_head}" _at)
  if(_failed OR _begin EQUAL -1 OR _end LESS_EQUAL _begin OR _at LESS _begin OR _at GREATER _end)
    message(STATUS "${_skip}: the linker printed no default script with ${_head}")
    return()
  endif()
  string(LENGTH "${_rule}" _rule_length)
  math(EXPR _begin "${_begin} + ${_rule_length}")
  math(EXPR _before "${_at} - ${_begin}")
  math(EXPR _after "${_end} - ${_at}")
  string(SUBSTRING "${_verbose}" ${_begin} ${_before} _script)
  string(SUBSTRING "${_verbose}" ${_at} ${_after} _rest)

  file(STRINGS "${_llvmplug_hot_list}" _names REGEX "^[^#]")
  string(APPEND _script "    /* The hot functions (cmake/LLVMPlugHotText.cmake). */\n")
  foreach(_name IN LISTS _names)
    string(APPEND _script "    *(.text.${_name})\n")
    # A complete constructor or destructor (C1, D1; of a template: C1I...)
    # is an alias of the base one (C2, D2), whose name its section carries.
    string(REGEX REPLACE "([CD])1([EI])" "\\12\\2" _base "${_name}")
    if(NOT _base STREQUAL _name)
      string(APPEND _script "    *(.text.${_base})\n")
    endif()
  endforeach()
  string(APPEND _script "${_rest}")
  set(_path "${CMAKE_CURRENT_BINARY_DIR}/hot_text.ld")
  file(CONFIGURE OUTPUT "${_path}" CONTENT "${_script}" @ONLY)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-Wl,-T,${_path}" LLVMPLUG_LINKER_TAKES_HOT_TEXT)
  if(NOT LLVMPLUG_LINKER_TAKES_HOT_TEXT)
    message(STATUS "${_skip}: the linker does not take ${_path}")
    return()
  endif()
  target_link_options(${target} PRIVATE "-Wl,-T,${_path}")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${_path}")
endfunction()
