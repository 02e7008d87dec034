package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
)

// API is the simulated cloud's console, for the kubespec driver, on loopback:
//
//	GET    /machines            → {items: [Machine]}
//	PUT    /machines/{name}     → the machine (201 made, 200 restated); body {addresses} optional
//	DELETE /machines/{name}     → {name, deleted: true}; 404 when there is no such machine
//	GET    /loadbalancers       → {items: [LoadBalancer]}
//
// Errors are Kubernetes Status objects, as the API server answers.
func API(c *Cloud) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/machines", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			methodNotAllowed(w, r, "GET")
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"items": c.Machines()})
	})
	mux.HandleFunc("/machines/", func(w http.ResponseWriter, r *http.Request) {
		name, err := url.PathUnescape(strings.TrimPrefix(r.URL.EscapedPath(), "/machines/"))
		if err != nil || name == "" || strings.Contains(name, "/") {
			writeStatus(w, http.StatusBadRequest, metav1.StatusReasonBadRequest, fmt.Sprintf("%q names no machine (want /machines/{name})", r.URL.Path), nil)
			return
		}
		switch r.Method {
		case http.MethodPut:
			var body struct {
				Addresses []v1.NodeAddress `json:"addresses"`
			}
			if raw, err := io.ReadAll(io.LimitReader(r.Body, 1<<20)); err != nil {
				writeStatus(w, http.StatusBadRequest, metav1.StatusReasonBadRequest, fmt.Sprintf("reading the body: %v", err), nil)
				return
			} else if len(strings.TrimSpace(string(raw))) > 0 {
				if err := json.Unmarshal(raw, &body); err != nil {
					writeStatus(w, http.StatusBadRequest, metav1.StatusReasonBadRequest, fmt.Sprintf("machine %q: the body is not {\"addresses\": [{type, address}]}: %v", name, err), nil)
					return
				}
			}
			m, created := c.PutMachine(name, body.Addresses)
			code := http.StatusOK
			if created {
				code = http.StatusCreated
			}
			writeJSON(w, code, m)
		case http.MethodDelete:
			if !c.DeleteMachine(name) {
				writeStatus(w, http.StatusNotFound, metav1.StatusReasonNotFound, fmt.Sprintf("machines %q not found", name),
					&metav1.StatusDetails{Name: name, Kind: "machines"})
				return
			}
			klog.Infof("kubespec cloud: machine %s deleted", name)
			writeJSON(w, http.StatusOK, map[string]any{"name": name, "deleted": true})
		default:
			methodNotAllowed(w, r, "PUT, DELETE")
		}
	})
	mux.HandleFunc("/loadbalancers", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			methodNotAllowed(w, r, "GET")
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"items": c.LoadBalancers()})
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeStatus(w, http.StatusNotFound, metav1.StatusReasonNotFound,
			fmt.Sprintf("the kubespec cloud serves no %q (it serves /machines, /machines/{name}, /loadbalancers)", r.URL.Path), nil)
	})
	return mux
}

func methodNotAllowed(w http.ResponseWriter, r *http.Request, allowed string) {
	w.Header().Set("Allow", allowed)
	writeStatus(w, http.StatusMethodNotAllowed, metav1.StatusReasonMethodNotAllowed,
		fmt.Sprintf("%s is not allowed on %s (allowed: %s)", r.Method, r.URL.Path, allowed), nil)
}

func writeStatus(w http.ResponseWriter, code int, reason metav1.StatusReason, message string, details *metav1.StatusDetails) {
	writeJSON(w, code, metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure, Message: message, Reason: reason, Details: details, Code: int32(code),
	})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		klog.Errorf("kubespec cloud: writing the answer: %v", err)
	}
}
