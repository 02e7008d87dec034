package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	v1 "k8s.io/api/core/v1"
	cloudprovider "k8s.io/cloud-provider"
)

// ProviderName is what --cloud-provider names; a node's providerID is kubespec://<machine>.
const ProviderName = "kubespec"

// Machine is one simulated VM: the driver makes one for each hollow kubelet it starts
// (PUT /machines/{name}) and deletes it as an operator deleting a VM would.
type Machine struct {
	Name       string `json:"name"`
	ProviderID string `json:"providerID"`
	// What the cloud says the machine's addresses are; empty: the ones its kubelet reported.
	Addresses []v1.NodeAddress `json:"addresses,omitempty"`
}

// LoadBalancer is one simulated cloud load balancer: the service it fronts, its backends
// (node names, sorted), its ports and the address it was given.
type LoadBalancer struct {
	Name    string                   `json:"name"`
	Service string                   `json:"service"`
	Nodes   []string                 `json:"nodes"`
	Ports   []LoadBalancerPort       `json:"ports"`
	Ingress []v1.LoadBalancerIngress `json:"ingress"`
	seq     int
}

// LoadBalancerPort is one port a balancer forwards: to the service's node port.
type LoadBalancerPort struct {
	Port     int32       `json:"port"`
	NodePort int32       `json:"nodePort,omitempty"`
	Protocol v1.Protocol `json:"protocol,omitempty"`
}

// Cloud is the simulated provider: machines and load balancers in memory, the same model as
// the reference's simulated cloud (src/cloud/simulated.ts, src/cloud/loadbalancer.ts). It
// implements cloudprovider.Interface with InstancesV2 and LoadBalancer; no zones, routes
// or clusters (the features state zones as node labels, and no scenario asks for routes).
type Cloud struct {
	mu        sync.Mutex
	machines  map[string]*Machine
	balancers map[string]*LoadBalancer
	// The next address handed out, 203.0.113.<nextHost> (RFC 5737 documentation range).
	nextHost int
	seq      int
}

// NewCloud returns an empty cloud whose first load balancer gets 203.0.113.10.
func NewCloud() *Cloud {
	return &Cloud{machines: map[string]*Machine{}, balancers: map[string]*LoadBalancer{}, nextHost: 10}
}

var (
	_ cloudprovider.Interface    = (*Cloud)(nil)
	_ cloudprovider.InstancesV2  = (*Cloud)(nil)
	_ cloudprovider.LoadBalancer = (*Cloud)(nil)
)

// the one instance main serves over HTTP and registers as the provider.
var theCloud = NewCloud()

func init() {
	cloudprovider.RegisterCloudProvider(ProviderName, func(io.Reader) (cloudprovider.Interface, error) {
		return theCloud, nil
	})
}

func (c *Cloud) Initialize(cloudprovider.ControllerClientBuilder, <-chan struct{}) {}
func (c *Cloud) LoadBalancer() (cloudprovider.LoadBalancer, bool)                  { return c, true }
func (c *Cloud) Instances() (cloudprovider.Instances, bool)                        { return nil, false }
func (c *Cloud) InstancesV2() (cloudprovider.InstancesV2, bool)                    { return c, true }
func (c *Cloud) Zones() (cloudprovider.Zones, bool)                                { return nil, false }
func (c *Cloud) Clusters() (cloudprovider.Clusters, bool)                          { return nil, false }
func (c *Cloud) Routes() (cloudprovider.Routes, bool)                              { return nil, false }
func (c *Cloud) ProviderName() string                                              { return ProviderName }

// HasClusterID: one simulated cluster per process, so every resource is this cluster's.
func (c *Cloud) HasClusterID() bool { return true }

// ── machines ────────────────────────────────────────────────────────────────────────────

// PutMachine makes (or restates) a machine; created tells which.
func (c *Cloud) PutMachine(name string, addresses []v1.NodeAddress) (m Machine, created bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, existed := c.machines[name]
	c.machines[name] = &Machine{Name: name, ProviderID: ProviderName + "://" + name, Addresses: addresses}
	return *c.machines[name], !existed
}

// DeleteMachine removes a machine; false when there was none.
func (c *Cloud) DeleteMachine(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.machines[name]
	delete(c.machines, name)
	return ok
}

// Machines lists the machines in name order.
func (c *Cloud) Machines() []Machine {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Machine, 0, len(c.machines))
	for _, m := range c.machines {
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// machineOf finds a node's machine by its providerID (kubespec://<name>), else by the node's
// name (a node the cloud node controller has not initialized yet has no providerID).
func (c *Cloud) machineOf(node *v1.Node) (*Machine, error) {
	name := node.Name
	if id := node.Spec.ProviderID; id != "" {
		if !strings.HasPrefix(id, ProviderName+"://") {
			return nil, fmt.Errorf("node %q has providerID %q, not one of cloud %q (%s://<machine>)", node.Name, id, ProviderName, ProviderName)
		}
		name = strings.TrimPrefix(id, ProviderName+"://")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.machines[name], nil
}

// InstanceExists: false once the machine is deleted, so the cloud node lifecycle controller
// deletes a NotReady node whose machine is gone (MonitorNodes).
func (c *Cloud) InstanceExists(_ context.Context, node *v1.Node) (bool, error) {
	m, err := c.machineOf(node)
	return m != nil, err
}

// InstanceShutdown: a simulated machine is running until it is deleted.
func (c *Cloud) InstanceShutdown(context.Context, *v1.Node) (bool, error) { return false, nil }

// InstanceMetadata gives the cloud node controller the providerID and the addresses: the
// machine's own when it was made with some, else those the kubelet reported (which hold the
// --node-ip the kubelet annotates, so the controller accepts them). InstanceNotFound for a
// node with no machine: the controller keeps the node tainted and retries.
func (c *Cloud) InstanceMetadata(_ context.Context, node *v1.Node) (*cloudprovider.InstanceMetadata, error) {
	m, err := c.machineOf(node)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, cloudprovider.InstanceNotFound
	}
	addresses := m.Addresses
	if len(addresses) == 0 {
		addresses = append([]v1.NodeAddress(nil), node.Status.Addresses...)
	}
	return &cloudprovider.InstanceMetadata{ProviderID: m.ProviderID, NodeAddresses: addresses}, nil
}

// ── load balancers ──────────────────────────────────────────────────────────────────────

func serviceKey(s *v1.Service) string { return s.Namespace + "/" + s.Name }

func nodeNames(nodes []*v1.Node) []string {
	out := make([]string, 0, len(nodes))
	for _, n := range nodes {
		out = append(out, n.Name)
	}
	sort.Strings(out)
	return out
}

func (c *Cloud) GetLoadBalancerName(_ context.Context, _ string, service *v1.Service) string {
	return cloudprovider.DefaultLoadBalancerName(service)
}

func (c *Cloud) GetLoadBalancer(ctx context.Context, cluster string, service *v1.Service) (*v1.LoadBalancerStatus, bool, error) {
	name := c.GetLoadBalancerName(ctx, cluster, service)
	c.mu.Lock()
	defer c.mu.Unlock()
	lb := c.balancers[name]
	if lb == nil {
		return nil, false, nil
	}
	return &v1.LoadBalancerStatus{Ingress: append([]v1.LoadBalancerIngress(nil), lb.Ingress...)}, true, nil
}

// EnsureLoadBalancer makes the service's balancer over these nodes, or brings an existing
// one up to date; a balancer keeps the address it was first given.
func (c *Cloud) EnsureLoadBalancer(ctx context.Context, cluster string, service *v1.Service, nodes []*v1.Node) (*v1.LoadBalancerStatus, error) {
	name := c.GetLoadBalancerName(ctx, cluster, service)
	c.mu.Lock()
	defer c.mu.Unlock()
	lb := c.balancers[name]
	if lb == nil {
		if c.nextHost > 254 {
			return nil, fmt.Errorf("cloud %q has no address left in 203.0.113.0/24 for load balancer %s (service %s)", ProviderName, name, serviceKey(service))
		}
		c.seq++
		lb = &LoadBalancer{Name: name, seq: c.seq, Ingress: []v1.LoadBalancerIngress{{IP: fmt.Sprintf("203.0.113.%d", c.nextHost)}}}
		c.nextHost++
		c.balancers[name] = lb
	}
	lb.Service = serviceKey(service)
	lb.Nodes = nodeNames(nodes)
	lb.Ports = nil
	for _, p := range service.Spec.Ports {
		lb.Ports = append(lb.Ports, LoadBalancerPort{Port: p.Port, NodePort: p.NodePort, Protocol: p.Protocol})
	}
	return &v1.LoadBalancerStatus{Ingress: append([]v1.LoadBalancerIngress(nil), lb.Ingress...)}, nil
}

// UpdateLoadBalancer sets the balancer's backends (the service controller's node sync).
func (c *Cloud) UpdateLoadBalancer(ctx context.Context, cluster string, service *v1.Service, nodes []*v1.Node) error {
	name := c.GetLoadBalancerName(ctx, cluster, service)
	c.mu.Lock()
	defer c.mu.Unlock()
	lb := c.balancers[name]
	if lb == nil {
		return fmt.Errorf("load balancer %s (service %s) not found in cloud %q", name, serviceKey(service), ProviderName)
	}
	lb.Nodes = nodeNames(nodes)
	return nil
}

// EnsureLoadBalancerDeleted removes the balancer; one already gone is fine.
func (c *Cloud) EnsureLoadBalancerDeleted(ctx context.Context, cluster string, service *v1.Service) error {
	name := c.GetLoadBalancerName(ctx, cluster, service)
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.balancers, name)
	return nil
}

// LoadBalancers lists the balancers in the order they were made.
func (c *Cloud) LoadBalancers() []LoadBalancer {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]LoadBalancer, 0, len(c.balancers))
	for _, lb := range c.balancers {
		cp := *lb
		cp.Nodes = append([]string{}, lb.Nodes...)
		cp.Ports = append([]LoadBalancerPort{}, lb.Ports...)
		cp.Ingress = append([]v1.LoadBalancerIngress{}, lb.Ingress...)
		out = append(out, cp)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}
