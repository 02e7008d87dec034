// Command etcd is the etcd server at the version kubernetes v1.32 ships (3.5.16), built
// from its published module: the same entry point as etcd's own binary.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
