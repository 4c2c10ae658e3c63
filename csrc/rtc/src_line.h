// src_line.h - the user's line of an offset in a source the rtc compiles,
// for the diagnostics that scan the text before clang does.
#ifndef ARC_RTC_SRC_LINE_H_
#define ARC_RTC_SRC_LINE_H_

#include <llvm/ADT/StringRef.h>

#include <cstddef>

namespace arc_rtc {

// The 1-based line of text[pos]; a Python program's source comes after the
// rtc's own `#line 1 "<file>"`, which names its first line 1.
inline int src_line(llvm::StringRef text, size_t pos)
{
    return (text.starts_with("#line 1 ") ? 0 : 1) + (int)text.take_front(pos).count('\n');
}

} // namespace arc_rtc

#endif
