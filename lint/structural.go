package lint

import (
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
)

// Rule ids of the structural set.
const (
	ruleUnknownField = "structural-unknown-field"
	ruleFieldType    = "structural-field-type"
	ruleUnsupported  = "structural-unsupported"
	ruleType         = "structural-type"
	ruleObject       = "structural-object"
	ruleJunctor      = "structural-junctor"
	ruleMetadata     = "structural-metadata"
	ruleExtension    = "structural-extension"
	rulePattern      = "structural-pattern"
	ruleDefault      = "structural-default"
	ruleValidation   = "structural-validation-rule"
	ruleCEL          = "structural-cel"
	ruleFormat       = "structural-format"
)

// Structural answers one question: would a current kube-apiserver accept
// the schema as a CustomResourceDefinition's openAPIV3Schema under strict
// field validation (what kubectl apply uses)? Its reference is the
// apiserver's own validation in k8s.io/apiextensions-apiserver: every
// error is a refusal the apiserver makes, pointing where it points;
// warnings and infos are advice about schemas it accepts. The set works on
// the plain document, so it also lints documents that are not valid JSON
// Schema.
var Structural = &Set{
	Name: "structural",
	Doc:  "would a kube-apiserver accept this as a CRD's openAPIV3Schema (apiextensions.k8s.io/v1, strict field validation)",
	Rules: []*Rule{
		structuralRule(ruleUnknownField, Error, "every keyword is a field of apiextensions.k8s.io/v1 JSONSchemaProps: strict field validation refuses others ($defs, const, prefixItems, deprecated, KUDO's trigger, ...); below items and additionalProperties the apiserver silently drops them instead (a warning)"),
		structuralRule(ruleFieldType, Error, "every field has the JSON type the apiserver decodes it into (type is one string, exclusiveMaximum a boolean, maxLength an integer, the root an object)"),
		structuralRule(ruleUnsupported, Error, "no id, $schema, $ref, definitions, dependencies, additionalItems, patternProperties, uniqueItems: true, or items as a list of schemas"),
		structuralRule(ruleType, Error, "type is one of array, boolean, integer, number, object, string and is set on every node (object at the root) unless x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields; nullable is not true at the root"),
		structuralRule(ruleObject, Error, "additionalProperties is not used with properties nor at the root; an array has items"),
		structuralRule(ruleJunctor, Error, "allOf, anyOf, oneOf and not hold value validations only (no type, default, description, nullable, x-kubernetes-*, additionalProperties or metadata), and what they name is specified outside them"),
		structuralRule(ruleMetadata, Error, "at the root (and in embedded resources) metadata is an object restricting at most name and generateName, kind and apiVersion are strings, and nothing below them has defaults or embedded resources"),
		structuralRule(ruleExtension, Error, "x-kubernetes-* extensions are used as the apiserver allows (preserve-unknown-fields true, list and map types, list map keys, embedded resources, int-or-string)"),
		structuralRule(rulePattern, Error, "every pattern is a valid Go (RE2) regular expression"),
		structuralRule(ruleDefault, Error, "defaults are pruned (no unknown fields), valid against their schema, and not inside top-level metadata"),
		structuralRule(ruleValidation, Error, "x-kubernetes-validations entries have a rule, single-line messages, a known reason and a valid fieldPath"),
		structuralRule(ruleCEL, Info, "CEL rules in x-kubernetes-validations are not compiled here; the apiserver compiles them and refuses syntax, type and cost errors"),
		structuralRule(ruleFormat, Warning, "formats are ones the apiserver recognises for the type (it warns about others and ignores them)"),
	},
}

func init() { Register(Structural) }

func structuralRule(id string, sev Severity, doc string) *Rule {
	return &Rule{
		ID:       id,
		Set:      "structural",
		Doc:      doc,
		Severity: sev,
		Run: func(p *Pass) {
			for _, f := range analyzeStructural(p.Doc) {
				if f.rule == id {
					p.ReportSeverity(f.sev, f.ptr, f.msg)
				}
			}
		},
	}
}

// sfinding is one finding of the structural analysis.
type sfinding struct {
	rule string
	sev  Severity
	ptr  string
	msg  string
}

// sanalysis runs every structural check over one document.
type sanalysis struct {
	doc      any
	findings []sfinding
	seen     map[sfinding]bool
}

// analyzeStructural decodes the document as the apiserver does and runs
// every check, returning the findings in a stable order.
func analyzeStructural(doc any) []sfinding {
	a := &sanalysis{doc: doc, seen: map[sfinding]bool{}}
	d := &sdecoder{a: a}
	root := d.root(doc)
	if root != nil {
		if root.nullable {
			a.add(ruleType, Error, pointer.Append(root.ptr, "nullable"), "Forbidden: nullable cannot be true at the root")
		}
		a.apiWalk(root, sctx{allowDefaults: true}, true)
		a.structWalk(root, levelRoot)
		a.rootCompleteness(root)
		a.defaultsWalk(root, true, false, false)
		a.formatWalk(root, 0)
	}
	return a.findings
}

// add records a finding. A pointer that does not resolve in the document
// (the apiserver names a field that is missing) is moved up to the
// nearest part that exists, and the missing tail is named in the message.
func (a *sanalysis) add(rule string, sev Severity, ptr, msg string) {
	if _, ok := pointer.Get(a.doc, ptr); !ok {
		tail := []string{}
		for ptr != "" {
			i := strings.LastIndexByte(ptr, '/')
			if i < 0 {
				break
			}
			tok, _ := pointer.Unescape(ptr[i+1:])
			tail = append([]string{tok}, tail...)
			ptr = ptr[:i]
			if _, ok := pointer.Get(a.doc, ptr); ok {
				break
			}
		}
		if _, ok := pointer.Get(a.doc, ptr); !ok {
			ptr = ""
		}
		msg = strings.Join(tail, ".") + ": " + msg
	}
	f := sfinding{rule: rule, sev: sev, ptr: ptr, msg: msg}
	if a.seen[f] {
		return
	}
	a.seen[f] = true
	a.findings = append(a.findings, f)
}
