// Package instancewebhook admits kudo.dev Instances for a
// controller-runtime operator, with paramkit deciding: it is what an
// operator author lifts into a project of their own.
//
// Handler is an admission.Handler, not a CustomDefaulter or
// CustomValidator, for three reasons that a controller-runtime user meets
// at once:
//
//   - its patches keep numbers exact: they are built here from the
//     parameters' own text (kube.JSONPatch, params.MarshalJSON);
//     admission.PatchResponseFromRaw goes through float64 and stores
//     9007199254740993 as 9007199254740992;
//   - its warnings reach the client (an undeclared key with the closest
//     declared name, a parameter an upgrade dropped); a CustomDefaulter
//     cannot return warnings;
//   - its denials carry Kubernetes field paths (spec.parameters.a.b[0]) in
//     the message and in status.details.causes[].field, where kubectl and
//     clients look for them.
//
// NewMutator serves the mutating webhook: it fills defaults, moves the
// parameters to their new places on an operator-version change (oldName)
// and writes the plan the change triggers into spec.planExecution, so
// that the reconciler learns it even when it never sees the intermediate
// state; a change that triggers no plan keeps the stored one, also when
// the client sent the object without it. NewValidator serves the validating webhook: it checks the final
// object again (after every other mutating webhook) and refuses invalid
// parameters, immutable changes, changes that trigger two plans and a
// spec.planExecution that does not say the plan the change triggers.
//
// Both look operator versions up through a Resolver (opversion.Cache).
// Serve them through kube.Reviews (Handler.Admit is its AdmitFunc) at
// MutatePath and ValidatePath, as config/webhook names them, and
// paramkit's conversion handler (kudoconvert.NewHandler, its Convert) at
// ConvertPath, on a kube.Server: kube's bounds (body budget, the
// review's deadline from the first byte, fair turns, repeated envelope
// keys refused, warnings capped) then hold on every path.
package instancewebhook
