package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"
	cloudprovider "k8s.io/cloud-provider"
)

func node(name, providerID string, addresses ...v1.NodeAddress) *v1.Node {
	return &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       v1.NodeSpec{ProviderID: providerID},
		Status:     v1.NodeStatus{Addresses: addresses},
	}
}

func TestMachines(t *testing.T) {
	ctx := context.Background()
	c := NewCloud()
	if _, created := c.PutMachine("vm-1", nil); !created {
		t.Fatal("a new machine is created")
	}
	hostname := v1.NodeAddress{Type: v1.NodeHostName, Address: "vm-1"}
	md, err := c.InstanceMetadata(ctx, node("vm-1", "", hostname))
	if err != nil || md.ProviderID != "kubespec://vm-1" || len(md.NodeAddresses) != 1 || md.NodeAddresses[0] != hostname {
		t.Fatalf("metadata of an uninitialized node: %+v, %v", md, err)
	}
	if ok, err := c.InstanceExists(ctx, node("other-name", "kubespec://vm-1")); !ok || err != nil {
		t.Fatalf("found by providerID first: %v %v", ok, err)
	}
	if _, err := c.InstanceMetadata(ctx, node("vm-2", "")); err != cloudprovider.InstanceNotFound {
		t.Fatalf("a node without a machine: %v", err)
	}
	if _, err := c.InstanceExists(ctx, node("vm-1", "gce://p/z/vm-1")); err == nil {
		t.Fatal("another cloud's providerID is an error")
	}
	stated := []v1.NodeAddress{{Type: v1.NodeInternalIP, Address: "10.0.0.7"}}
	c.PutMachine("vm-3", stated)
	if md, _ := c.InstanceMetadata(ctx, node("vm-3", "", hostname)); md.NodeAddresses[0] != stated[0] {
		t.Fatalf("the machine's stated addresses win: %+v", md.NodeAddresses)
	}
	if !c.DeleteMachine("vm-1") || c.DeleteMachine("vm-1") {
		t.Fatal("delete once")
	}
	if ok, _ := c.InstanceExists(ctx, node("vm-1", "kubespec://vm-1")); ok {
		t.Fatal("a deleted machine does not exist")
	}
}

func svc(ns, name, uid string) *v1.Service {
	return &v1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: k8stypes.UID("1234-abcd-" + uid)},
		Spec:       v1.ServiceSpec{Type: v1.ServiceTypeLoadBalancer, Ports: []v1.ServicePort{{Port: 80, NodePort: 30080, Protocol: v1.ProtocolTCP}}},
	}
}

func TestLoadBalancers(t *testing.T) {
	ctx := context.Background()
	c := NewCloud()
	shop, other := svc("default", "shop", "1"), svc("default", "other", "2")
	st, err := c.EnsureLoadBalancer(ctx, "kubernetes", shop, []*v1.Node{node("n2", ""), node("n1", "")})
	if err != nil || st.Ingress[0].IP != "203.0.113.10" {
		t.Fatalf("first balancer: %+v %v", st, err)
	}
	if st, _ := c.EnsureLoadBalancer(ctx, "kubernetes", other, nil); st.Ingress[0].IP != "203.0.113.11" {
		t.Fatalf("second balancer: %+v", st)
	}
	if st, _ := c.EnsureLoadBalancer(ctx, "kubernetes", shop, nil); st.Ingress[0].IP != "203.0.113.10" {
		t.Fatalf("a balancer keeps its address: %+v", st)
	}
	if err := c.UpdateLoadBalancer(ctx, "kubernetes", shop, []*v1.Node{node("n3", ""), node("n1", "")}); err != nil {
		t.Fatal(err)
	}
	lbs := c.LoadBalancers()
	if len(lbs) != 2 || lbs[0].Service != "default/shop" || strings.Join(lbs[0].Nodes, ",") != "n1,n3" || lbs[0].Ports[0].NodePort != 30080 {
		t.Fatalf("listed: %+v", lbs)
	}
	if _, exists, _ := c.GetLoadBalancer(ctx, "kubernetes", shop); !exists {
		t.Fatal("exists")
	}
	if err := c.EnsureLoadBalancerDeleted(ctx, "kubernetes", shop); err != nil {
		t.Fatal(err)
	}
	if err := c.EnsureLoadBalancerDeleted(ctx, "kubernetes", shop); err != nil {
		t.Fatal("deleting a deleted balancer is fine")
	}
	if err := c.UpdateLoadBalancer(ctx, "kubernetes", shop, nil); err == nil {
		t.Fatal("updating a missing balancer fails")
	}
	if st, _ := c.EnsureLoadBalancer(ctx, "kubernetes", shop, nil); st.Ingress[0].IP != "203.0.113.12" {
		t.Fatalf("a new balancer, a new address: %+v", st)
	}
}

func TestAPI(t *testing.T) {
	c := NewCloud()
	srv := httptest.NewServer(API(c))
	defer srv.Close()
	do := func(method, path, body string) (int, map[string]any) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
			t.Fatalf("%s %s: not JSON: %v", method, path, err)
		}
		return res.StatusCode, out
	}
	if code, m := do("PUT", "/machines/vm-1", ""); code != 201 || m["providerID"] != "kubespec://vm-1" {
		t.Fatalf("PUT: %d %v", code, m)
	}
	if code, _ := do("PUT", "/machines/vm-1", `{"addresses":[{"type":"InternalIP","address":"10.0.0.1"}]}`); code != 200 {
		t.Fatalf("PUT again: %d", code)
	}
	if code, m := do("PUT", "/machines/vm-2", `{"addresses":`); code != 400 || m["kind"] != "Status" || m["reason"] != "BadRequest" {
		t.Fatalf("bad body: %d %v", code, m)
	}
	if code, m := do("GET", "/machines", ""); code != 200 || len(m["items"].([]any)) != 1 {
		t.Fatalf("GET: %d %v", code, m)
	}
	if code, m := do("DELETE", "/machines/vm-1", ""); code != 200 || m["deleted"] != true {
		t.Fatalf("DELETE: %d %v", code, m)
	}
	if code, m := do("DELETE", "/machines/vm-1", ""); code != 404 || m["reason"] != "NotFound" {
		t.Fatalf("DELETE again: %d %v", code, m)
	}
	if code, m := do("POST", "/loadbalancers", ""); code != 405 || m["reason"] != "MethodNotAllowed" {
		t.Fatalf("POST: %d %v", code, m)
	}
	if code, m := do("GET", "/loadbalancers", ""); code != 200 || len(m["items"].([]any)) != 0 {
		t.Fatalf("GET lbs: %d %v", code, m)
	}
	if code, m := do("GET", "/nope", ""); code != 404 || m["kind"] != "Status" {
		t.Fatalf("unknown path: %d %v", code, m)
	}
}
