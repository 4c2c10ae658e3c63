// graph/utils/type_utils.h - ge::TypeUtils: element sizes and names of
// ge::DataType values for tiling functions.
#ifndef ARC_HOST_GRAPH_TYPE_UTILS_H
#define ARC_HOST_GRAPH_TYPE_UTILS_H

#include <string>

#include "graph/ascend_string.h"
#include "graph/types.h"

namespace ge {

class TypeUtils {
public:
    // length = bytes per element; false for types without a whole-byte size.
    static bool GetDataTypeLength(DataType dt, uint32_t &length)
    {
        int n = GetSizeByDataType(dt);
        if (n <= 0)
            return false;
        length = static_cast<uint32_t>(n);
        return true;
    }

    static std::string DataTypeToSerialString(DataType dt)
    {
#define ARC_GE_DT_NAME_(name, value, bytes, dtype, ctype) case name: return #name;
        switch (dt) { ARC_GE_DTYPES(ARC_GE_DT_NAME_) default: return "DT_UNDEFINED"; }
#undef ARC_GE_DT_NAME_
    }

    static AscendString DataTypeToAscendString(DataType dt)
    {
        return AscendString(DataTypeToSerialString(dt).c_str());
    }

    static std::string FormatToSerialString(Format f) { return GetFormatName(f); }

    static AscendString FormatToAscendString(Format f) { return AscendString(FormatToSerialString(f).c_str()); }
};

} // namespace ge

#endif
