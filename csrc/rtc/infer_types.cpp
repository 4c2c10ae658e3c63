// infer_types.cpp - see infer_types.h.  One walk over each kernel's body,
// following the parameter into the user's own functions it is passed to
// (`op.Init(x, y, z)`, a few calls deep); the device API's bodies (PCH or
// /arc/include) are never walked, so the cost is proportional to the kernel.
#include "infer_types.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Mangle.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <map>
#include <set>
#include <utility>

namespace arc_rtc {
namespace {

// The spelling meta.h's ARC_SCALAR_TYPES uses for a scalar type, or "".
std::string scalar_name(clang::QualType t, const clang::ASTContext &ctx)
{
    t = t.getCanonicalType().getUnqualifiedType();
    const auto *b = t->getAs<clang::BuiltinType>();
    if (!b)
        return "";
    uint64_t bits = ctx.getTypeSize(t);
    switch (b->getKind()) {
    case clang::BuiltinType::Float: return "float";
    case clang::BuiltinType::Double: return "double";
    case clang::BuiltinType::Float16:
    case clang::BuiltinType::Half: return "half";
    case clang::BuiltinType::Bool: return "bool";
    case clang::BuiltinType::Char_S:
    case clang::BuiltinType::SChar: return "int8_t";
    case clang::BuiltinType::Char_U:
    case clang::BuiltinType::UChar: return "uint8_t";
    case clang::BuiltinType::Short: return "int16_t";
    case clang::BuiltinType::UShort: return "uint16_t";
    case clang::BuiltinType::Int: return "int32_t";
    case clang::BuiltinType::UInt: return "uint32_t";
    case clang::BuiltinType::Long:
    case clang::BuiltinType::LongLong: return bits == 64 ? "int64_t" : "";
    case clang::BuiltinType::ULong:
    case clang::BuiltinType::ULongLong: return bits == 64 ? "uint64_t" : "";
    default: return "";
    }
}

// A parameter whose own type says nothing of its elements: a pointer to
// bytes (GM_ADDR is `__gm__ uint8_t *`) or to void.
bool is_byte_pointer(clang::QualType t)
{
    const auto *p = t.getCanonicalType()->getAs<clang::PointerType>();
    if (!p)
        return false;
    clang::QualType e = p->getPointeeType().getCanonicalType();
    return e->isVoidType() || e->isSpecificBuiltinType(clang::BuiltinType::UChar) ||
           e->isSpecificBuiltinType(clang::BuiltinType::Char_U) ||
           e->isSpecificBuiltinType(clang::BuiltinType::Char_S);
}

using TypeSet = std::set<std::string>;
const unsigned kMaxDepth = 4;  // kernel -> Init -> helper ...: enough for the samples' shapes

// The parameter an expression is (through parentheses, implicit conversions
// and pointer arithmetic: `(T *)(x + off)`), or null.
const clang::ParmVarDecl *param_of(const clang::Expr *e)
{
    for (;;) {
        e = e->IgnoreParenImpCasts();
        const auto *bo = llvm::dyn_cast<clang::BinaryOperator>(e);
        if (!bo)
            break;
        if (!bo->isAdditiveOp() || !bo->getLHS()->getType()->isPointerType())
            return nullptr;
        e = bo->getLHS();
    }
    const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e);
    return ref ? llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl()) : nullptr;
}

class Analysis;

// What one function's body does with one of its byte-pointer parameters:
// the element types it casts it to, and the calls it passes it on to.
class UseVisitor : public clang::RecursiveASTVisitor<UseVisitor> {
public:
    UseVisitor(Analysis &a, const clang::ParmVarDecl *p, unsigned depth, TypeSet &out)
        : a_(a), p_(p), depth_(depth), out_(out) {}
    bool VisitExplicitCastExpr(clang::ExplicitCastExpr *e);
    bool VisitCallExpr(clang::CallExpr *e);
    bool VisitCXXConstructExpr(clang::CXXConstructExpr *e);

private:
    void passed_to(const clang::FunctionDecl *callee, unsigned i);
    Analysis &a_;
    const clang::ParmVarDecl *p_;
    unsigned depth_;
    TypeSet &out_;
};

class Analysis {
public:
    Analysis(const clang::ASTContext &ctx, const clang::SourceManager &sm) : ctx_(ctx), sm_(sm) {}

    // The element types parameter i of f is used as (memoised; "?" for a
    // non-scalar type).
    const TypeSet &uses(const clang::FunctionDecl *f, unsigned i, unsigned depth)
    {
        auto key = std::make_pair(f, i);
        auto it = memo_.find(key);
        if (it != memo_.end())
            return it->second;
        TypeSet &out = memo_[key];  // empty while being computed: recursion ends
        const clang::FunctionDecl *def = nullptr;
        if (depth <= kMaxDepth && f->hasBody(def) && def && i < def->getNumParams() && user_code(def)) {
            UseVisitor v(*this, def->getParamDecl(i), depth, out);
            v.TraverseStmt(def->getBody());
        }
        return out;
    }

    const clang::ASTContext &ctx() const { return ctx_; }

private:
    // The user's own source and headers: not the device API (precompiled or under /arc/include).
    bool user_code(const clang::FunctionDecl *f) const
    {
        if (f->isFromASTFile())
            return false;
        llvm::StringRef file = sm_.getFilename(sm_.getFileLoc(f->getLocation()));
        return !file.starts_with("/arc/include");
    }

    const clang::ASTContext &ctx_;
    const clang::SourceManager &sm_;
    std::map<std::pair<const clang::FunctionDecl *, unsigned>, TypeSet> memo_;
};

bool UseVisitor::VisitExplicitCastExpr(clang::ExplicitCastExpr *e)
{
    const auto *to = e->getType().getCanonicalType()->getAs<clang::PointerType>();
    if (!to || param_of(e->getSubExpr()) != p_ || is_byte_pointer(e->getType()))
        return true;  // not our parameter, or a byte view that says nothing
    std::string name = scalar_name(to->getPointeeType(), a_.ctx());
    out_.insert(name.empty() ? "?" : name);
    return true;
}

bool UseVisitor::VisitCallExpr(clang::CallExpr *e)
{
    if (llvm::isa<clang::CXXOperatorCallExpr>(e))
        return true;
    const clang::FunctionDecl *callee = e->getDirectCallee();
    for (unsigned i = 0; callee && i < e->getNumArgs(); i++)
        if (param_of(e->getArg(i)) == p_)
            passed_to(callee, i);
    return true;
}

bool UseVisitor::VisitCXXConstructExpr(clang::CXXConstructExpr *e)
{
    for (unsigned i = 0; i < e->getNumArgs(); i++)
        if (param_of(e->getArg(i)) == p_)
            passed_to(e->getConstructor(), i);
    return true;
}

void UseVisitor::passed_to(const clang::FunctionDecl *callee, unsigned i)
{
    if (i >= callee->getNumParams() || !is_byte_pointer(callee->getParamDecl(i)->getType()))
        return;  // a typed parameter takes no byte pointer without a cast we would have seen
    const TypeSet &t = a_.uses(callee, i, depth_ + 1);
    out_.insert(t.begin(), t.end());
}

class Consumer : public clang::ASTConsumer {
public:
    explicit Consumer(InferredTypes &out) : out_(out) {}

    bool HandleTopLevelDecl(clang::DeclGroupRef group) override
    {
        for (clang::Decl *d : group)
            collect(d);
        return true;
    }

    // At the end, when templates used by the kernels are instantiated.
    void HandleTranslationUnit(clang::ASTContext &ctx) override
    {
        Analysis a(ctx, ctx.getSourceManager());
        auto infer = [&a](const clang::FunctionDecl *f) {
            std::vector<std::string> r(f->getNumParams());
            for (unsigned i = 0; i < f->getNumParams(); i++) {
                if (!is_byte_pointer(f->getParamDecl(i)->getType()))
                    continue;
                const TypeSet &t = a.uses(f, i, 0);
                if (t.size() == 1 && *t.begin() != "?")
                    r[i] = *t.begin();
            }
            return r;
        };
        for (const clang::FunctionDecl *f : kernels_)
            out_[f->getQualifiedNameAsString()] = infer(f);
        // Template kernels: each instance the program made (name expressions,
        // explicit instantiations), keyed by its mangled name, since the
        // instances share the template's name.
        std::unique_ptr<clang::MangleContext> mc(ctx.createMangleContext());
        for (const clang::FunctionTemplateDecl *t : templates_)
            for (const clang::FunctionDecl *f : t->specializations()) {
                if (!f->doesThisDeclarationHaveABody() || f->isDependentContext())
                    continue;
                std::string name;
                llvm::raw_string_ostream os(name);
                mc->mangleName(clang::GlobalDecl(f), os);
                os.flush();
                out_[name] = infer(f);
            }
    }

private:
    void collect(clang::Decl *d)
    {
        if (auto *dc = llvm::dyn_cast<clang::LinkageSpecDecl>(d)) {
            for (clang::Decl *inner : dc->decls())
                collect(inner);
        } else if (auto *ns = llvm::dyn_cast<clang::NamespaceDecl>(d)) {
            for (clang::Decl *inner : ns->decls())
                collect(inner);
        } else if (auto *t = llvm::dyn_cast<clang::FunctionTemplateDecl>(d)) {
            const clang::FunctionDecl *f = t->getTemplatedDecl();
            if (!f->getReturnType()->isVoidType() || llvm::isa<clang::CXXMethodDecl>(f))
                return;
            for (const clang::ParmVarDecl *p : f->parameters())
                if (is_byte_pointer(p->getType())) {
                    templates_.push_back(t);
                    return;
                }
        } else if (auto *f = llvm::dyn_cast<clang::FunctionDecl>(d)) {
            // Kernel candidates: void, not templates (their instances share one name), with a byte pointer.
            if (!f->doesThisDeclarationHaveABody() || f->isDependentContext() || !f->getReturnType()->isVoidType() ||
                f->getTemplatedKind() != clang::FunctionDecl::TK_NonTemplate || llvm::isa<clang::CXXMethodDecl>(f))
                return;
            for (const clang::ParmVarDecl *p : f->parameters())
                if (is_byte_pointer(p->getType())) {
                    kernels_.push_back(f);
                    return;
                }
        }
    }

    InferredTypes &out_;
    std::vector<const clang::FunctionDecl *> kernels_;
    std::vector<const clang::FunctionTemplateDecl *> templates_;
};

} // namespace

std::unique_ptr<clang::ASTConsumer> make_type_inference(InferredTypes &out)
{
    return std::make_unique<Consumer>(out);
}

} // namespace arc_rtc
