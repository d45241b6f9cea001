#!/usr/bin/env bash
# The lint step of the composite action (action.yml at the repository
# root). It runs paramctl lint twice: as SARIF into a file for code
# scanning, then as text into the job log (FILE:LINE:COL lines, the count
# last). Inputs come as PARAMCTL_* variables; paths, values files and
# changed files are separated by white space (PARAMCTL_CHANGED lints the
# charts those files belong to, with the overlays that changed). Outputs: sarif-file, sarif-ok (the SARIF is
# complete: lint read every input), exit-code. It exits with lint's
# status, or 0 for error findings when PARAMCTL_FAIL_ON_ERROR is false.
# Both runs name files from the repository root (paramctl lint's one
# root), which is what code scanning resolves SARIF URIs against, so the
# step may run from any working directory.
set -uo pipefail

set -f # the inputs' words are paths, not patterns
paths=(${PARAMCTL_PATHS:-})
values=(${PARAMCTL_VALUES:-})
changed=(${PARAMCTL_CHANGED:-})
set +f

args=()
if [ ${#changed[@]} -gt 0 ]; then
  # The charts the change touched, each once, with the overlays that changed.
  args+=(--charts)
  paths+=("${changed[@]}")
fi

if [ ${#paths[@]} -eq 0 ]; then
  echo "paramctl lint: the paths input names nothing to lint" >&2
  exit 2
fi

[ -n "${PARAMCTL_RULES:-}" ] && args+=(--rules "$PARAMCTL_RULES")
[ -n "${PARAMCTL_CONFIG:-}" ] && args+=(--config "$PARAMCTL_CONFIG")
[ -n "${PARAMCTL_BASELINE:-}" ] && args+=(--baseline "$PARAMCTL_BASELINE")
for v in ${values[@]+"${values[@]}"}; do
  args+=(--values "$v")
done

sarif="${PARAMCTL_SARIF:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/paramctl-lint.sarif}"
out="${GITHUB_OUTPUT:-/dev/null}"

paramctl lint ${args[@]+"${args[@]}"} -o sarif -- "${paths[@]}" > "$sarif" 2>/dev/null
sarif_code=$?
paramctl lint ${args[@]+"${args[@]}"} -- "${paths[@]}"
code=$?

{
  echo "sarif-file=$sarif"
  if [ "$sarif_code" -le 1 ]; then echo "sarif-ok=true"; else echo "sarif-ok=false"; fi
  echo "exit-code=$code"
} >> "$out"

if [ "$code" -eq 1 ] && [ "${PARAMCTL_FAIL_ON_ERROR:-true}" = "false" ]; then
  echo "paramctl lint: error findings reported, not failing (fail-on-error: false)" >&2
  exit 0
fi
exit "$code"
