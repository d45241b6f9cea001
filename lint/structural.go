package lint

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"

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

// structuralSet answers one question: would a current kube-apiserver accept
// the schema as a CustomResourceDefinition's openAPIV3Schema under strict
// field validation (what kubectl apply uses)? Its reference is the
// apiserver's own validation in k8s.io/apiextensions-apiserver: every
// error is a refusal the apiserver makes, pointing where it points;
// warnings and infos are advice about schemas it accepts. The set works on
// the plain document, so it also lints documents that are not valid JSON
// Schema.
var structuralSet = &Set{
	Name: "structural",
	Doc:  "would a kube-apiserver accept this as a CRD's openAPIV3Schema (apiextensions.k8s.io/v1, strict field validation)",
	Rules: []*Rule{
		structuralRule(ruleUnknownField, Error, "every keyword is a field of apiextensions.k8s.io/v1 JSONSchemaProps: strict field validation refuses others ($defs, const, prefixItems, deprecated, KUDO's trigger, ...); below items and additionalProperties the apiserver silently drops them instead (a warning)"),
		structuralRule(ruleFieldType, Error, "every field has the JSON type the apiserver decodes it into (type is one string, exclusiveMaximum a boolean, maxLength an integer, the root an object)"),
		structuralRule(ruleUnsupported, Error, "no id, $schema, $ref, definitions, dependencies, additionalItems, patternProperties, uniqueItems: true, or items as a list of schemas"),
		structuralRule(ruleType, Error, "type is one of array, boolean, integer, number, object, string and is set on every node (object at the root) unless x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields; nullable is not true at the root"),
		structuralRule(ruleObject, Error, "additionalProperties is not used with properties nor at the root; an array has items"),
		structuralRule(ruleJunctor, Error, "allOf, anyOf, oneOf and not hold value validations only (no type, default, description, nullable, x-kubernetes-*, additionalProperties or metadata), and what they name is specified outside them (checked by the apiserver at the root; below it a warning, as pruning drops the rest)"),
		structuralRule(ruleMetadata, Error, "at the root (and in embedded resources) metadata is an object restricting at most name and generateName, kind and apiVersion are strings, and no embedded resource sits inside them"),
		structuralRule(ruleExtension, Error, "x-kubernetes-* extensions are used as the apiserver allows (preserve-unknown-fields true, list and map types, list map keys, embedded resources, int-or-string)"),
		structuralRule(rulePattern, Error, "every pattern is a valid Go (RE2) regular expression"),
		structuralRule(ruleDefault, Error, "defaults are pruned (no unknown fields), valid against their schema, and not inside top-level metadata; defaults under additionalProperties, which the apiserver applies unchecked, are checked as warnings"),
		structuralRule(ruleValidation, Error, "x-kubernetes-validations entries have a rule, single-line messages, a known reason and a valid fieldPath, use oldSelf only where old values correlate (not in items of a non-map list), and set optionalOldSelf only with oldSelf"),
		structuralRule(ruleCEL, Error, "every x-kubernetes-validations rule and messageExpression compiles as the apiserver compiles it when the CRD is created (CEL syntax, undeclared references, types, a rule that is no bool, a messageExpression that is no string) and the estimated cost of each and of all together is within the apiserver's budgets"),
		structuralRule(ruleFormat, Warning, "formats are ones the apiserver recognises for the type (it warns about others and ignores them)"),
		structuralIntegerRange,
	},
}

func structuralRule(id string, sev Severity, doc string) *Rule {
	return &Rule{
		ID:       id,
		Set:      "structural",
		Doc:      doc,
		Severity: sev,
		Run: func(p *Pass) {
			for _, f := range cachedStructural(p.Doc) {
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
	regexps  map[string]*regexpResult
}

type regexpResult struct {
	re  *regexp.Regexp
	err error
}

// regexp compiles a pattern once per analysis.
func (a *sanalysis) regexp(pattern string) (*regexp.Regexp, error) {
	if r, ok := a.regexps[pattern]; ok {
		return r.re, r.err
	}
	re, err := regexp.Compile(pattern)
	a.regexps[pattern] = &regexpResult{re, err}
	return re, err
}

// The rules of the set each report their share of one analysis; the last
// analysis is kept for the next rule, keyed by the document's identity
// and a fingerprint of its content (so an edit in place is seen).
var structuralCache struct {
	sync.Mutex
	id       uintptr
	sum      uint64
	findings []sfinding
}

func cachedStructural(doc any) []sfinding {
	m, ok := doc.(map[string]any)
	if !ok {
		return analyzeStructural(doc)
	}
	id, sum := reflect.ValueOf(m).Pointer(), fingerprint(doc)
	c := &structuralCache
	c.Lock()
	if c.findings != nil && c.id == id && c.sum == sum {
		fs := c.findings
		c.Unlock()
		return fs
	}
	c.Unlock()
	fs := analyzeStructural(doc)
	c.Lock()
	c.id, c.sum, c.findings = id, sum, fs
	c.Unlock()
	return fs
}

// fingerprint hashes a plain value; map entries combine independently of
// their order.
func fingerprint(v any) uint64 { return fingerprintAt(v, 0) }

func fingerprintAt(v any, depth int) uint64 {
	if depth > 10000 {
		return 0
	}
	switch t := v.(type) {
	case map[string]any:
		sum := uint64(0x9e3779b97f4a7c15)
		for k, x := range t {
			sum += fnvString(k, 'k') ^ (fingerprintAt(x, depth+1) * 31)
		}
		return sum
	case []any:
		acc := uint64(0xcbf29ce484222325) ^ uint64(len(t))
		for _, x := range t {
			acc = (acc ^ fingerprintAt(x, depth+1)) * 0x100000001b3
		}
		return acc
	case string:
		return fnvString(t, 's')
	case json.Number:
		return fnvString(string(t), 'n')
	case bool:
		if t {
			return 1
		}
		return 2
	case nil:
		return 3
	}
	return fnvString(fmt.Sprintf("%T%v", v, v), 'o')
}

// fnvString is FNV-1a over a kind byte and the string.
func fnvString(s string, kind byte) uint64 {
	h := uint64(0xcbf29ce484222325)
	h = (h ^ uint64(kind)) * 0x100000001b3
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 0x100000001b3
	}
	return h
}

// analyzeStructural decodes the document as the apiserver does and runs
// every check, returning the findings in a stable order.
func analyzeStructural(doc any) []sfinding {
	a := &sanalysis{doc: doc, seen: map[sfinding]bool{}, regexps: map[string]*regexpResult{}}
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
		a.celChecks(root)
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
