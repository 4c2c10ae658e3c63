// elf_merge.h - several x86-64 ELF relocatable objects, code generated in
// parallel from the parts of one module (emit_split.h), joined into the one
// object a binary is, as `ld -r` would join them.
#ifndef ARC_RTC_ELF_MERGE_H_
#define ARC_RTC_ELF_MERGE_H_

#include <set>
#include <string>
#include <vector>

namespace arc_rtc {

// Joins parts into out: sections of the same name, type and flags become one
// (each part's piece at its alignment), relocations and symbols follow their
// pieces, a symbol undefined in one part and defined in another is the
// definition.  Names in `local` (the module's internal symbols, made global
// only to cross between parts) are local symbols again.  False with *err
// set for what it does not join (section groups, common symbols, a global
// defined twice, a malformed part): the caller generates code whole.
bool elf_merge(const std::vector<std::vector<char>> &parts, const std::set<std::string> &local,
               std::vector<char> &out, std::string *err);

} // namespace arc_rtc

#endif
