/* adv_tiling_fields.h - op_host code only (the tiling DSL in host mode):
 * the advanced API's tiling structs (adv_tiling_data.h) describe their
 * fields as the compiler laid them out, from the same X-macros that make
 * the structs, so a DSL class nesting one (TILING_DATA_FIELD_DEF_STRUCT(
 * SoftMaxTiling, sm)) decodes field by field in Python like a DSL class. */
#ifndef ARC_ADV_TILING_FIELDS_H_
#define ARC_ADV_TILING_FIELDS_H_

#include "lib/tiling/adv_tiling_data.h"

namespace __arc_tiling {
#define ARC_PLAIN_S_(type, field) ::__arc_tiling::describe<type>(s, #field, 's', 1, __builtin_offsetof(Self, field));
#define ARC_PLAIN_A_(type, field, n) ::__arc_tiling::describe<type>(s, #field, 'a', n, __builtin_offsetof(Self, field));
#define ARC_PLAIN_(T, FIELDS)                                                                    \
    template <> struct plain<::T> {                                                              \
        static const char *name() { return #T; }                                                 \
        static void fields(field_sink &s)                                                        \
        {                                                                                        \
            typedef ::T Self;                                                                    \
            FIELDS(ARC_PLAIN_S_, ARC_PLAIN_A_)                                                   \
        }                                                                                        \
    };
ARC_ADV_TILINGS(ARC_PLAIN_)
#undef ARC_PLAIN_
#undef ARC_PLAIN_A_
#undef ARC_PLAIN_S_
} // namespace __arc_tiling

#endif /* ARC_ADV_TILING_FIELDS_H_ */
