#!/bin/sh
# Refreshes the copy of Helm's --set parser from a Helm v4 release in the
# module cache: ./update.sh v4.3.1 (then run this package's tests and
# test/helm's TestStrvalsIsHelms).
set -eu
v=${1:?usage: update.sh HELM_VERSION}
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && go mod init tmp >/dev/null 2>&1 && go mod download -json "helm.sh/helm/v4@$v" >mod.json)
src=$(sed -n 's/.*"Dir": "\(.*\)".*/\1/p' "$tmp/mod.json")/pkg/strvals
for f in parser.go literal_parser.go doc.go parser_test.go literal_parser_test.go; do
	awk -v v="$v" '/^package strvals/ && !done {
		print "// Copied unchanged from helm.sh/helm/v4@" v "/pkg/strvals (Apache-2.0, see"
		print "// the header above) so that --set and its kin follow Helm'"'"'s grammar by"
		print "// construction without the helm module in paramkit'"'"'s go.mod: see README,"
		print "// Dependencies. Refresh it from a new Helm release with update.sh."
		print ""
		done = 1
	}
	{ print }' "$src/$f" >"$dir/$f"
done
