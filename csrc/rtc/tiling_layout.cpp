// tiling_layout.cpp - see tiling_layout.h.  A struct whose bytes cannot be
// shown field by field (a bit-field, a pointer, a union, a virtual base)
// is still described: that field's fmt is empty and its cls names the
// type, so Python shows the raw bytes and says why.
#include "tiling_layout.h"

#include <string>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecordLayout.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#pragma GCC diagnostic pop

namespace arc_rtc {
namespace {

std::string quoted(const std::string &s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += (static_cast<unsigned char>(c) < 0x20) ? ' ' : c;
    }
    return out + "\"";
}

// The Python struct format character of a scalar type (tiling_dsl.h's
// fmt_of, from clang's type), 'T' a struct or class, 0 one it cannot name.
char fmt_of(const clang::ASTContext &ctx, clang::QualType t)
{
    if (const auto *e = t->getAs<clang::EnumType>())
        t = e->getDecl()->getIntegerType();
    if (t.isNull())
        return 0;
    if (const auto *r = t->getAs<clang::RecordType>())
        return r->getDecl()->isUnion() ? 0 : 'T';
    if (t->isBooleanType())
        return '?';
    const auto *b = t->getAs<clang::BuiltinType>();
    if (!b)
        return 0;
    switch (b->getKind()) {
    case clang::BuiltinType::Half:
    case clang::BuiltinType::Float16:
        return 'e';
    case clang::BuiltinType::Float:
        return 'f';
    case clang::BuiltinType::Double:
        return 'd';
    default:
        break;
    }
    if (!t->isIntegerType())
        return 0;
    bool sign = t->isSignedIntegerType();
    switch (ctx.getTypeSize(t)) {
    case 8:
        return sign ? 'b' : 'B';
    case 16:
        return sign ? 'h' : 'H';
    case 32:
        return sign ? 'i' : 'I';
    case 64:
        return sign ? 'q' : 'Q';
    default:
        return 0;
    }
}

class Describer {
public:
    explicit Describer(const clang::ASTContext &ctx) : ctx_(ctx) {}

    // {"cls", "type", "size", "fields"} of one struct.
    std::string record(const clang::RecordDecl *rd)
    {
        std::string fields;
        fields_of(rd, 0, fields);
        return "{\"cls\":" + quoted(rd->getNameAsString()) + ",\"type\":" + quoted(type_name(rd)) +
               ",\"size\":" + std::to_string(ctx_.getASTRecordLayout(rd).getSize().getQuantity()) +
               ",\"fields\":[" + fields + "]}";
    }

    std::string type_name(const clang::RecordDecl *rd)
    {
        return clang::QualType(rd->getTypeForDecl(), 0).getAsString(ctx_.getPrintingPolicy());
    }

private:
    const clang::ASTContext &ctx_;

    void row(std::string &out, const std::string &name, char kind, char fmt, const std::string &cls, uint64_t count,
             int64_t offset, clang::QualType elem, const clang::RecordDecl *sub)
    {
        out += std::string(out.empty() ? "" : ",") + "{\"name\":" + quoted(name) + ",\"kind\":\"" + kind +
               "\",\"fmt\":" + quoted(fmt ? std::string(1, fmt) : std::string()) + ",\"cls\":" + quoted(cls) +
               ",\"count\":" + std::to_string(count) + ",\"offset\":" + std::to_string(offset);
        if (!elem.isNull() && !elem->isIncompleteType())
            out += ",\"size\":" + std::to_string(ctx_.getTypeSizeInChars(elem).getQuantity()) +
                   ",\"align\":" + std::to_string(ctx_.getTypeAlignInChars(elem).getQuantity());
        else
            out += ",\"size\":0,\"align\":0";
        if (sub) {
            std::string inner;
            fields_of(sub, 0, inner);
            out += ",\"fields\":[" + inner + "]";
        }
        out += "}";
    }

    // The fields of rd at `base` bytes: its non-virtual bases' first (as
    // the layout places them), then its own.
    void fields_of(const clang::RecordDecl *rd, int64_t base, std::string &out)
    {
        const clang::ASTRecordLayout &lay = ctx_.getASTRecordLayout(rd);
        if (const auto *cxx = llvm::dyn_cast<clang::CXXRecordDecl>(rd)) {
            for (const clang::CXXBaseSpecifier &b : cxx->bases()) {
                const clang::CXXRecordDecl *bd = b.getType()->getAsCXXRecordDecl();
                if (b.isVirtual() || !bd)
                    row(out, "(virtual base)", 's', 0, b.getType().getAsString(), 1, base, clang::QualType(), nullptr);
                else
                    fields_of(bd, base + lay.getBaseClassOffset(bd).getQuantity(), out);
            }
        }
        for (const clang::FieldDecl *f : rd->fields()) {
            int64_t off = base + static_cast<int64_t>(lay.getFieldOffset(f->getFieldIndex()) / 8);
            clang::QualType t = f->getType().getCanonicalType().getUnqualifiedType();
            std::string name = f->getNameAsString();
            if (f->isBitField() || name.empty()) {  // a bit-field's bits, or an anonymous member: not named here
                row(out, name.empty() ? "(anonymous)" : name, 's', 0,
                    (f->isBitField() ? "bit-field " : "") + t.getAsString(ctx_.getPrintingPolicy()), 1, off,
                    clang::QualType(), nullptr);
                continue;
            }
            uint64_t count = 1;
            bool array = false;
            while (const auto *a = llvm::dyn_cast<clang::ConstantArrayType>(t.getTypePtr())) {
                count *= a->getSize().getZExtValue();
                t = a->getElementType().getCanonicalType().getUnqualifiedType();
                array = true;
            }
            char fmt = t->isArrayType() ? 0 : fmt_of(ctx_, t);   // a flexible array member: no size to show
            const clang::RecordDecl *sub = fmt == 'T' ? t->getAs<clang::RecordType>()->getDecl()->getDefinition() : nullptr;
            if (fmt == 'T' && !sub)
                fmt = 0;
            std::string cls = sub ? sub->getNameAsString() : fmt ? std::string() : t.getAsString(ctx_.getPrintingPolicy());
            row(out, name, array ? 'a' : sub ? 't' : 's', fmt, cls, count, off, fmt ? t : clang::QualType(), sub);
        }
    }
};

// The T of each gert::TilingContext::GetTilingData<T>() instantiated.
class LayoutConsumer : public clang::ASTConsumer {
public:
    explicit LayoutConsumer(TilingLayouts *out) : out_(out) {}

    void HandleTranslationUnit(clang::ASTContext &ctx) override
    {
        auto find = [&](const clang::DeclContext *dc, const char *name) -> const clang::NamedDecl * {
            auto r = dc->lookup(&ctx.Idents.get(name));
            return r.empty() ? nullptr : r.front();
        };
        const auto *ns = llvm::dyn_cast_or_null<clang::NamespaceDecl>(find(ctx.getTranslationUnitDecl(), "gert"));
        const auto *tc = ns ? llvm::dyn_cast_or_null<clang::CXXRecordDecl>(find(ns, "TilingContext")) : nullptr;
        tc = tc ? tc->getDefinition() : nullptr;
        const auto *get = tc ? llvm::dyn_cast_or_null<clang::FunctionTemplateDecl>(find(tc, "GetTilingData")) : nullptr;
        if (!get)
            return;
        Describer d(ctx);
        for (const clang::FunctionDecl *fd : get->specializations()) {
            const clang::TemplateArgumentList *args = fd->getTemplateSpecializationArgs();
            if (!args || args->size() != 1 || args->get(0).getKind() != clang::TemplateArgument::Type)
                continue;
            const clang::RecordType *rt = args->get(0).getAsType()->getAs<clang::RecordType>();
            const clang::RecordDecl *rd = rt ? rt->getDecl()->getDefinition() : nullptr;
            if (rd && !rd->isUnion() && !rd->isInvalidDecl() && !rd->isDependentType())
                out_->emplace(d.type_name(rd), d.record(rd));
        }
    }

private:
    TilingLayouts *out_;
};

} // namespace

std::unique_ptr<clang::ASTConsumer> tiling_layout_consumer(TilingLayouts *out)
{
    return std::make_unique<LayoutConsumer>(out);
}

void define_tiling_layouts(llvm::Module &m, const TilingLayouts &layouts)
{
    std::string json = "[";
    for (const auto &kv : layouts)
        json += (json.size() > 1 ? "," : "") + kv.second;
    json += "]";
    const char *name = "__arc_plain_tiling_classes";
    llvm::Constant *init = llvm::ConstantDataArray::getString(m.getContext(), json, true);
    auto *gv = new llvm::GlobalVariable(m, init->getType(), true, llvm::GlobalValue::ExternalLinkage, init);
    if (llvm::GlobalVariable *decl = m.getGlobalVariable(name)) {
        decl->replaceAllUsesWith(gv);
        decl->eraseFromParent();
    }
    gv->setName(name);
}

} // namespace arc_rtc
