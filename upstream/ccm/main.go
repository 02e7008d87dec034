// Command cloud-controller-manager is upstream's external cloud-controller-manager
// (k8s.io/cloud-provider/app, as its sample/basic_main.go wires it) with one provider of
// its own, "kubespec": a simulated cloud of machines and load balancers (cloud.go) whose
// console the kubespec driver reaches over loopback HTTP (api.go). The upstream target starts
// it, with kube-controller-manager --cloud-provider=external, for scenarios that name a cloud.
//
// Flags of its own, beside the cloud-controller-manager's:
//
//	--kubespec-api-bind-address  where the console listens (default 127.0.0.1:0, a free port)
//	--kubespec-api-address-file  a file the console's host:port is written to once it listens
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"

	"k8s.io/apimachinery/pkg/util/wait"
	cloudprovider "k8s.io/cloud-provider"
	"k8s.io/cloud-provider/app"
	"k8s.io/cloud-provider/app/config"
	"k8s.io/cloud-provider/names"
	"k8s.io/cloud-provider/options"
	"k8s.io/component-base/cli"
	cliflag "k8s.io/component-base/cli/flag"
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // client-go metrics, as the sample loads them
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/klog/v2"
)

func main() {
	ccmOptions, err := options.NewCloudControllerManagerOptions()
	if err != nil {
		klog.Fatalf("unable to initialize command options: %v", err)
	}
	fss := cliflag.NamedFlagSets{}
	own := fss.FlagSet("kubespec cloud")
	bind := own.String("kubespec-api-bind-address", "127.0.0.1:0", "where the simulated cloud's console listens (loopback; port 0: a free one)")
	addressFile := own.String("kubespec-api-address-file", "", "a file to write the console's host:port to once it listens")

	initializer := func(c *config.CompletedConfig) cloudprovider.Interface {
		cloud := initCloud(c)
		if err := serveAPI(*bind, *addressFile); err != nil {
			klog.Fatalf("kubespec cloud: %v", err)
		}
		return cloud
	}
	// The controllers' default client names (node-controller, service-controller): the API
	// server's bootstrap RBAC already has their roles, so no role needs installing.
	command := app.NewCloudControllerManagerCommand(ccmOptions, initializer, app.DefaultInitFuncConstructors,
		names.CCMControllerAliases(), fss, wait.NeverStop)
	os.Exit(cli.Run(command))
}

// initCloud is the sample's cloudInitializer: the provider --cloud-provider names.
func initCloud(c *config.CompletedConfig) cloudprovider.Interface {
	cfg := c.ComponentConfig.KubeCloudShared.CloudProvider
	cloud, err := cloudprovider.InitCloudProvider(cfg.Name, cfg.CloudConfigFile)
	if err != nil {
		klog.Fatalf("cloud provider could not be initialized: %v", err)
	}
	if cloud == nil {
		klog.Fatalf("cloud provider %q is unknown (this cloud-controller-manager has %q)", cfg.Name, ProviderName)
	}
	return cloud
}

// serveAPI starts the console and, once it listens, writes where to addressFile (through a
// temporary file renamed over it, so a reader never sees half an address).
func serveAPI(bind, addressFile string) error {
	ln, err := net.Listen("tcp", bind)
	if err != nil {
		return fmt.Errorf("the console cannot listen on %s: %w", bind, err)
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
		return fmt.Errorf("the console must listen on loopback, not %s", ln.Addr())
	}
	go func() {
		if err := http.Serve(ln, API(theCloud)); err != nil {
			klog.Fatalf("kubespec cloud: the console stopped: %v", err)
		}
	}()
	klog.Infof("kubespec cloud: console on http://%s", ln.Addr())
	if addressFile == "" {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(addressFile), ".address-")
	if err != nil {
		return err
	}
	if _, err := tmp.WriteString(ln.Addr().String()); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), addressFile)
}
