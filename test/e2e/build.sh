#!/usr/bin/env bash
# Builds the servers the end-to-end test runs, into bin/ beside this script:
#   bin/kube-apiserver  k8s.io/kubernetes/cmd/kube-apiserver (the version in go.mod)
#   bin/etcd            go.etcd.io/etcd/server/v3 (the version in go.mod), through ./cmd/etcd
# Everything comes from the Go module proxy; nothing else is downloaded.
# The kube-apiserver takes about five minutes on two cores once its modules
# are downloaded (the first download comes on top).
# Usage: ./build.sh [kube-apiserver|etcd]...   (both when none is named)
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p bin

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(etcd kube-apiserver)

for t in "${targets[@]}"; do
  case "$t" in
    kube-apiserver) pkg=k8s.io/kubernetes/cmd/kube-apiserver ;;
    etcd) pkg=./cmd/etcd ;;
    *) echo "build.sh: unknown target $t (kube-apiserver or etcd)" >&2; exit 2 ;;
  esac
  echo "== go build -o bin/$t $pkg"
  start=$SECONDS
  # -trimpath keeps the binaries independent of this checkout's location.
  go build -trimpath -o "bin/$t" "$pkg"
  echo "   bin/$t built in $((SECONDS - start))s"
done
