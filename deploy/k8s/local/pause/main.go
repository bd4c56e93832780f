// The pod sandbox's process for the local cluster (deploy/k8s/local-cluster.sh), which pulls no image:
// it holds the pod's namespaces open and exits when the runtime stops it, as the registry's pause does.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	<-stop
}
