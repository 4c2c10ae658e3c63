// resource_dir.cpp - see resource_dir.h.
#include "resource_dir.h"

#include <dlfcn.h>
#include <unistd.h>

#include <mutex>
#include <string>

namespace {

// <dir of libacl_rtc.so>/<sub> when <sub>/<probe> is readable there, else
// the build machine's directory.
std::string beside_library(const char *sub, const char *probe, const char *fallback)
{
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&arc_resource_dir), &info) && info.dli_fname) {
        std::string lib(info.dli_fname);
        std::string beside = lib.substr(0, lib.rfind('/') + 1) + sub;
        if (access((beside + "/" + probe).c_str(), R_OK) == 0)
            return beside;
    }
    return fallback;
}

} // namespace

const char *arc_resource_dir(void)
{
    static std::string dir;
    static std::once_flag once;
    std::call_once(once, [] { dir = beside_library("clang", "include/stddef.h", ARC_CLANG_RESOURCE_DIR); });
    return dir.c_str();
}

const char *arc_libcxx_dir(void)
{
    static std::string dir;
    static std::once_flag once;
    std::call_once(once, [] {
        dir = beside_library("libcxx/v1", "__config", ARC_LIBCXX_DIR);
        if (access((dir + "/__config").c_str(), R_OK) != 0)
            dir.clear();
    });
    return dir.c_str();
}
