//go:build tools

// Package tools names the upstream commands this module builds, so that `go mod tidy`
// keeps their dependencies. Nothing here is compiled into kubespec.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
)
