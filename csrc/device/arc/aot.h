/* aot.h - convert_from_bytes<T>(bytes): the compile-time conversion of a
 * constant tiling's bytes to its struct that CANN's AOT compilation guide
 * ("AOT编译优化") builds its constant tiling holders on (a global name, as
 * the guide's holders call it unqualified).  T must be trivially copyable
 * and hold no pointers (a constant expression cannot reinterpret those). */
#ifndef ARC_AOT_H_
#define ARC_AOT_H_

#include <stddef.h>
#include <stdint.h>

template <typename T> constexpr T convert_from_bytes(const uint8_t *bytes)
{
    static_assert(__is_trivially_copyable(T), "convert_from_bytes: T must be trivially copyable");
    struct raw {
        uint8_t b[sizeof(T)];
    } r{};
    for (size_t i = 0; i < sizeof(T); i++) r.b[i] = bytes[i];
    return __builtin_bit_cast(T, r);
}

#endif /* ARC_AOT_H_ */
