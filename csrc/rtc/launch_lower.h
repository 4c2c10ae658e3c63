// launch_lower.h - the <<<...>>> launches of a single-source program,
// rewritten for `ascendrtc cc` (--host-object) into calls the device API's
// arc/launch.h defines.  Internal to the clang bridge (C++).
#ifndef ARC_RTC_LAUNCH_LOWER_H_
#define ARC_RTC_LAUNCH_LOWER_H_

#include <set>
#include <string>

#include "options.h"

namespace arc_rtc {

// Rewrites every `callee<<<cfg>>>(` in text into
// `::__arc::launch<::__arc::pick<N>::of(&callee)>(__FILE__, __LINE__, cfg)(`
// (N: the launch's argument count, which picks among overloads; no line moves),
// where callee is the (qualified, template-id) name before the `<<<`.
// Returns how many it rewrote; a launch it cannot read (no callee name, no
// closing >>>) gets an error naming its line in *log and -1.
// A template kernel launched as k<<<...>>>(args) leaves its template
// arguments to deduction from args, as a call does: for those kernels the
// launch becomes ::__arc::launch<static_cast<decltype(__arc_deduce_k(args))>(&k) >(...)
// where __arc_deduce_k is a twin declaration with k's template head and
// parameter types returning k's function pointer type.
int lower_host_launches(const char *name, std::string &text, std::string *log,
                        const std::set<std::string> *deduced = nullptr);

// Adds the twins (launch_deduce.cpp), each after its kernel's declaration
// on the same line; returns the names of the kernels that have one
// (opts: the compile's -D/-U, for the groups the scan knows).
std::set<std::string> add_deduction_twins(std::string &text, const rtc_opts *opts);

// The template argument standing for `callee` in a launch whose arguments
// start at args_open (a '('): the deduced instance, or "" when callee is not
// one of `deduced` or its arguments cannot be copied into one line.
std::string deduced_kernel(const std::string &text, size_t args_open, const std::string &callee,
                           const std::set<std::string> &deduced);

} // namespace arc_rtc

#endif
