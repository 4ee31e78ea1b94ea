// info.h: what this copy of the shim is and what it can target, as JSON.
#ifndef LLVMPLUG_INFO_H
#define LLVMPLUG_INFO_H

#include <string>

namespace llvmplug {

// See llvmplug_info in llvmplug.h for the fields.
std::string describeLibrary();

// This build's id (llvmplug_build_id in llvmplug.h), generated at build time
// by cmake/LLVMPlugBuildId.cmake.
const char *buildId();

} // namespace llvmplug

#endif
