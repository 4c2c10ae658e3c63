// arc/host_describe.h - the op definition as JSON, for ascendrtc's op path
// (arc/host_driver.h's arc_host_describe): inputs, outputs, attrs, SoC
// configs, the op's functions and its registered tiling classes with their
// fields as the compiler laid them out.  Nothing here is for op code to use.
#ifndef ARC_HOST_DESCRIBE_H_
#define ARC_HOST_DESCRIBE_H_

#include <cstdio>
#include <string>
#include <vector>

#include "register/op_def_registry.h"
#include "register/op_impl_registry.h"
#include "register/tilingdata_base.h"

// The plain structs of the host code's GetTilingData<T>() calls as the
// compiler laid them out (a JSON array; defined by the host compile,
// csrc/rtc/tiling_layout.cpp).
extern "C" const char __arc_plain_tiling_classes[];

namespace arc_host {
class Json {
public:
    Json &raw(const std::string &s)
    {
        out_ += s;
        fresh_ = false;
        return *this;
    }
    Json &str(const std::string &s)
    {
        out_ += '"';
        for (unsigned char c : s) {
            if (c == '"' || c == '\\') {
                out_ += '\\';
                out_ += static_cast<char>(c);
            } else if (c < 0x20) {
                char b[8];
                std::snprintf(b, sizeof b, "\\u%04x", c);
                out_ += b;
            } else {
                out_ += static_cast<char>(c);
            }
        }
        out_ += '"';
        fresh_ = false;
        return *this;
    }
    Json &num(double v)
    {
        if (std::isnan(v))
            return raw("NaN");
        if (std::isinf(v))
            return raw(v > 0 ? "Infinity" : "-Infinity");
        char b[40];
        std::snprintf(b, sizeof b, "%.9g", v);
        return raw(b);
    }
    Json &inum(long long v) { return raw(std::to_string(v)); }
    Json &unum(unsigned long long v) { return raw(std::to_string(v)); }
    Json &key(const char *k)
    {
        comma();
        str(k);
        out_ += ':';
        fresh_ = true;
        return *this;
    }
    Json &open(char c)
    {
        comma();
        out_ += c;
        fresh_ = true;
        return *this;
    }
    Json &close(char c)
    {
        out_ += c;
        fresh_ = false;
        return *this;
    }
    // Separates values: called before each array element or object key.
    Json &comma()
    {
        if (!fresh_ && !out_.empty())
            out_ += ',';
        fresh_ = false;
        return *this;
    }
    const std::string &text() const { return out_; }

private:
    std::string out_;
    bool fresh_ = true;
};

inline void param_json(Json &j, ops::OpParamDef &p)
{
    j.open('{').key("name").str(p.arc_name());
    j.key("param_type").inum(p.arc_param_type());
    j.key("dtypes").open('[');
    for (auto d : p.arc_dtypes())
        j.comma().inum(d);
    j.close(']');
    j.key("dtype_list").raw(p.arc_dtype_list() ? "true" : "false");
    j.key("formats").open('[');
    for (auto f : p.arc_formats())
        j.comma().inum(f);
    j.close(']');
    j.key("value_depend").inum(p.arc_value_depend());
    j.key("follow").str(p.arc_follow());
    j.key("shape_computed").raw(p.arc_shape_computed() ? "true" : "false");
    j.close('}');
}

inline void params_json(Json &j, const char *k, std::vector<ops::OpParamDef> &v)
{
    j.key(k).open('[');
    for (auto &p : v)
        param_json(j, p);
    j.close(']');
}

// The op's functions: its OpDef's, else those registered for its type
// (IMPL_OP_INFERSHAPE / IMPL_OP_OPTILING).
inline gert::InferShapeKernelFunc infer_shape_of(ops::OpDef &d)
{
    auto *i = gert::arc_op_impl(d.GetOpType().GetString());
    return d.arc_infer_shape() ? d.arc_infer_shape() : i ? i->infer_shape : nullptr;
}
inline gert::InferDataTypeKernelFunc infer_dtype_of(ops::OpDef &d)
{
    auto *i = gert::arc_op_impl(d.GetOpType().GetString());
    return d.arc_infer_dtype() ? d.arc_infer_dtype() : i ? i->infer_dtype : nullptr;
}
inline gert::TilingKernelFunc tiling_of(ops::OpDef &d)
{
    auto *i = gert::arc_op_impl(d.GetOpType().GetString());
    return d.AICore().GetTiling() ? d.AICore().GetTiling() : i ? i->tiling : nullptr;
}

// A tiling class's fields as the compiler laid them out (tiling_dsl.h's
// field_info), nested classes inside their field: Python decodes and packs
// the tiling bytes from this, never from the header's text.
struct FieldsJson : __arc_tiling::field_sink {
    Json &j;
    explicit FieldsJson(Json &out) : j(out) {}
    void field(const __arc_tiling::field_info &f) override
    {
        j.open('{').key("name").str(f.name).key("kind").str(std::string(1, f.kind));
        j.key("fmt").str(f.fmt ? std::string(1, f.fmt) : std::string()).key("cls").str(f.cls);
        j.key("count").unum(f.count).key("offset").unum(f.offset).key("size").unum(f.size);
        j.key("align").unum(f.align);
        if (f.sub) {
            j.key("fields").open('[');
            f.sub(*this);
            j.close(']');
        }
        j.close('}');
    }
};

inline std::string describe(ops::OpDef &d)
{
    Json j;
    j.open('{').key("ok").raw("true").key("type").str(d.GetOpType().GetString());
    params_json(j, "inputs", d.arc_inputs());
    params_json(j, "outputs", d.arc_outputs());
    j.key("attrs").open('[');
    for (auto &a : d.arc_attrs()) {
        j.open('{').key("name").str(a.arc_name()).key("required").raw(a.arc_required() ? "true" : "false");
        j.key("kind").inum(static_cast<int>(a.arc_kind()));
        j.key("has_default").raw(a.arc_has_default() ? "true" : "false");
        j.key("ints").open('[');
        for (auto v : a.arc_ints())
            j.comma().inum(v);
        j.close(']').key("floats").open('[');
        for (auto v : a.arc_floats())
            j.comma().num(v);
        j.close(']').key("str").str(a.arc_str()).close('}');
    }
    j.close(']');
    j.key("configs").open('[');
    auto &cfgs = d.AICore().arc_configs();
    for (size_t i = 0; i < cfgs.size(); i++) {
        j.open('{').key("soc").str(cfgs[i].first);
        j.key("given").raw(d.AICore().arc_config_given()[i] ? "true" : "false");
        params_json(j, "inputs", cfgs[i].second.arc_inputs());
        params_json(j, "outputs", cfgs[i].second.arc_outputs());
        j.close('}');
    }
    j.close(']');
    j.key("tiling").raw(tiling_of(d) ? "true" : "false");
    j.key("tiling_classes").open('[');
    for (const __arc_tiling::reg_entry *e = __arc_tiling::registry_head(); e; e = e->next) {
        j.open('{').key("op").str(e->op).key("cls").str(e->cls).key("size").unum(e->size).key("fields").open('[');
        FieldsJson fj(j);
        e->fields(fj);
        j.close(']').close('}');
    }
    j.close(']');
    j.key("plain_classes").raw(__arc_plain_tiling_classes);
    j.key("infer_shape").raw(infer_shape_of(d) ? "true" : "false");
    j.key("infer_dtype").raw(infer_dtype_of(d) ? "true" : "false");
    j.close('}');
    return j.text();
}

} // namespace arc_host

#endif /* ARC_HOST_DESCRIBE_H_ */
