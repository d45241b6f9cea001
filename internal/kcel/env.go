package kcel

import (
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"
)

// The CEL environment of x-kubernetes-validations as kube-apiserver v1.37
// builds it (k8s.io/apiserver/pkg/cel/environment.baseOpts): the
// environment for stored expressions (what the apiserver evaluates
// objects with) holds every library of 1.37; the one for new
// expressions (what it compiles a CRD's rules with when the CRD is
// created or changed) is compatible with 1.36, its compatibility
// version, so it has the lists library of version 0 (no includes).

// envKind picks one of the two environments.
type envKind int

const (
	storedEnv envKind = iota
	newEnv
)

func baseOptions(kind envKind) []cel.EnvOption {
	listsVersion := uint32(1) // introduced in 1.37
	if kind == newEnv {
		listsVersion = 0
	}
	return []cel.EnvOption{
		cel.HomogeneousAggregateLiterals(),
		cel.EagerlyValidateDeclarations(true),
		cel.DefaultUTCTimeZone(true),
		URLs(),
		Regex(),
		cel.CostEstimatorOptions(checker.PresenceTestHasCost(false)),
		Lists(ListsVersion(listsVersion)),
		cel.CrossTypeNumericComparisons(true),
		cel.OptionalTypes(),
		QuantityLib(),
		cel.ASTValidators(
			cel.ValidateDurationLiterals(),
			cel.ValidateTimestampLiterals(),
			cel.ValidateRegexLiterals(),
			cel.ValidateHomogeneousAggregateLiterals(),
		),
		ext.Strings(ext.StringsVersion(2)),
		ext.Sets(),
		IPLib(),
		CIDRLib(),
		FormatLib(),
		ext.TwoVarComprehensions(),
		SemverLib(SemverVersion(1)),
		ext.Lists(ext.ListsVersion(3)),
	}
}

func programOptions() []cel.ProgramOption {
	return []cel.ProgramOption{
		cel.EvalOptions(cel.OptOptimize, cel.OptTrackCost),
		cel.CostTrackerOptions(interpreter.PresenceTestHasCost(false)),
	}
}

var (
	baseEnvs    [2]*cel.Env
	baseEnvErrs [2]error
	baseOnce    [2]sync.Once
	typeCounter atomic.Uint64
)

func baseEnv(kind envKind) (*cel.Env, error) {
	baseOnce[kind].Do(func() {
		baseEnvs[kind], baseEnvErrs[kind] = cel.NewEnv(baseOptions(kind)...)
	})
	return baseEnvs[kind], baseEnvErrs[kind]
}

// ruleEnvs extends a base environment with self and oldSelf of declType,
// and with oldSelf as an optional (optionalOldSelf).
func ruleEnvs(kind envKind, declType *DeclType) (plain, optional *cel.Env, err error) {
	base, err := baseEnv(kind)
	if err != nil {
		return nil, nil, err
	}
	scoped := declType.MaybeAssignTypeName("selfType" + strconv.FormatUint(typeCounter.Add(1), 10))
	provider := NewDeclTypeProvider(scoped)
	provider.SetRecognizeKeywordAsFieldName(true)
	providerOpts, err := provider.EnvOptions(base.CELTypeProvider())
	if err != nil {
		return nil, nil, fmt.Errorf("the type of self: %w", err)
	}
	selfVar := cel.Variable(ScopedVarName, scoped.CelType())
	plain, err = base.Extend(append(append([]cel.EnvOption{}, providerOpts...), selfVar, cel.Variable(OldScopedVarName, scoped.CelType()))...)
	if err != nil {
		return nil, nil, err
	}
	optional, err = base.Extend(append(append([]cel.EnvOption{}, providerOpts...), selfVar, cel.Variable(OldScopedVarName, types.NewOptionalType(scoped.CelType())))...)
	if err != nil {
		return nil, nil, err
	}
	return plain, optional, nil
}

// The names of the variables of a rule.
const (
	ScopedVarName    = "self"
	OldScopedVarName = "oldSelf"
)
