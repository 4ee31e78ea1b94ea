// info.h: what this copy of the shim is and what it can target, as JSON.
#ifndef LLVMPLUG_INFO_H
#define LLVMPLUG_INFO_H

#include <string>

namespace llvmplug {

// See llvmplug_info in llvmplug.h for the fields.
std::string describeLibrary();

} // namespace llvmplug

#endif
