// resource_dir.cpp - see resource_dir.h.
#include "resource_dir.h"

#include <dlfcn.h>
#include <unistd.h>

#include <mutex>
#include <string>

const char *arc_resource_dir(void)
{
    static std::string dir;
    static std::once_flag once;
    std::call_once(once, [] {
        dir = ARC_CLANG_RESOURCE_DIR;
        Dl_info info;
        if (dladdr(reinterpret_cast<void *>(&arc_resource_dir), &info) && info.dli_fname) {
            std::string lib(info.dli_fname);
            std::string beside = lib.substr(0, lib.rfind('/') + 1) + "clang";
            if (access((beside + "/include/stddef.h").c_str(), R_OK) == 0)
                dir = beside;
        }
    });
    return dir.c_str();
}
