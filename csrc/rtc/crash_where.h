// crash_where.h - where clang was when it crashed (crash_where.cpp).
#ifndef ARC_RTC_CRASH_WHERE_H_
#define ARC_RTC_CRASH_WHERE_H_

namespace arc_rtc {

// Until the next call, a crash of this thread's compile first records
// clang's own account of what it was doing (its pretty stack: the parser's
// token, the declaration being generated, the pass and function, with
// file:line:col where clang gives one); crash_where() returns it ("" when
// none), "; "-separated, innermost first.
void crash_where_arm();
const char *crash_where();

} // namespace arc_rtc

#endif
