@needs-http @needs-kubelet-api
Feature: kubectl exec and attach reach the container through the API server and its kubelet
  The API server reaches the kubelet for logs, for a command line in a container
  (`kubectl exec -it`) and for port-forward, at the kubelet's HTTPS port. kubectl asks the
  API server for pods/{name}/exec (or /attach); the API server checks the pod and the
  container, finds the pod's node and relays the upgraded connection to that kubelet's
  /exec/{namespace}/{pod}/{container} (/attach/…), which runs the command and streams
  stdin, stdout and stderr; the exit status comes back as a Status on the error channel
  (NonZeroExitCode, with the code), and kubectl exits with it.

  kubectl ≥ 1.31 speaks WebSocket first (`v5.channel.k8s.io`, then `v4.channel.k8s.io`;
  KUBECTL_REMOTE_COMMAND_WEBSOCKETS) and falls back to SPDY/3.1 (a POST upgraded to SPDY,
  one stream per channel), which is all a v1.12 kubectl spoke: both work here.

  Hollow containers run no image, but a small simulated userland: `echo`, `hostname`,
  `cat /etc/hostname`, `env`/`printenv` (PATH, HOSTNAME, the container's env values, HOME),
  `cat` (echoes stdin), `true`, `false`, `sh -c 'a; b && c; exit N'`; anything else fails
  with exit code 127. attach joins the hollow main process, which echoes its stdin.
  Source: 000 §2.3 Master to Cluster › 1、apiserver to kubelet ("通过 kubectl exec -it 指令…获得容器的命令行终端").
  Upstream: pkg/registry/core/pod/rest/subresources.go (ExecREST, AttachREST),
  pkg/registry/core/pod/strategy.go (ExecLocation, streamLocation), pkg/kubelet/server,
  client-go tools/remotecommand (websocket.go, v4/v5 error decoding), kubectl cmd/exec.

  Background:
    Given a ready node "10.4.42.5"
    And a pod "web" running on node "10.4.42.5" with container:
      """
      name: app
      image: registry.k8s.io/pause:3.9
      env:
        - name: GREETING
          value: hello
      """

  @COMM-EXEC @upstream-smoke
  Scenario: kubectl exec runs the command in the container over a WebSocket and prints its output
    When I run "kubectl exec -v=6 web -- echo hello from the container"
    Then kubectl prints "hello from the container"
    And kubectl prints "pods/web/exec?command=echo&command=hello&command=from&command=the&command=container&container=app&stderr=true&stdout=true 101 Switching Protocols" on stderr
    And kubectl prints "The subprotocol is v5.channel.k8s.io" on stderr

  @COMM-EXEC
  Scenario: The container's environment and host name are the pod's
    When I run "kubectl exec web -- env"
    Then kubectl prints "GREETING=hello"
    And kubectl prints "HOSTNAME=web"
    When I run "kubectl exec web -- cat /etc/hostname"
    Then kubectl prints exactly:
      """
      web
      """

  @COMM-EXEC
  Scenario: A non-zero exit code travels back as kubectl's own exit code
    When I run "kubectl exec web -- sh -c 'echo partial output; exit 3'"
    Then kubectl exits with code 3 and prints "command terminated with exit code 3" on stderr
    When I run "kubectl exec web -- sh -c 'false && echo never; exit'"
    Then kubectl exits with code 1
    When I run "kubectl exec web -- no-such-binary"
    Then kubectl exits with code 127 and prints "no-such-binary": executable file not found in $PATH" on stderr

  @COMM-EXEC
  Scenario: stdin reaches the command (-i), and its end closes the command's input
    When I run "kubectl exec -i web -- cat" with stdin:
      """
      line one
      line two
      """
    Then kubectl prints exactly:
      """
      line one
      line two
      """

  @COMM-EXEC
  Scenario: kubectl's SPDY fallback reaches the same container
    When I run "kubectl exec -v=6 web -- sh -c 'echo over spdy; exit 2'" over SPDY
    Then kubectl exits with code 2 and prints "POST https://" on stderr
    And kubectl exits with code 2 and prints "pods/web/exec?command=sh&command=-c&command=echo+over+spdy%3B+exit+2&container=app&stderr=true&stdout=true 101 Switching Protocols" on stderr
    When I run "kubectl exec -i web -- cat" over SPDY with stdin:
      """
      spdy stdin
      """
    Then kubectl prints "spdy stdin"

  @COMM-EXEC
  Scenario: A container the pod does not have is refused by the API server
    When I run "kubectl exec web -c sidecar -- echo hi"
    Then kubectl fails with "container sidecar is not valid for pod web"

  @COMM-EXEC @COMM-KUBELET
  Scenario: exec needs the kubelet: a silent kubelet means an error, and the stored pod stays
    When the kubelet on "10.4.42.5" stops
    And I run "kubectl exec web -- echo hi" over SPDY
    Then kubectl fails with "error dialing backend"
    # Over a WebSocket a v1.32 API server first accepts the client, then dials the kubelet
    # with SPDY (StreamTranslatorHandler, k8s.io/apiserver pkg/util/proxy): the failed dial
    # comes back on the error channel as "Internal error occurred: error sending request:
    # Post …: dial tcp …" (client-go's spdy Negotiate), not as upgradeaware's "error dialing
    # backend"; both name the dial that failed.
    When I run "kubectl exec web -- echo hi"
    Then kubectl fails with "dial tcp 10.4.42.5:10250"
    And pod "web" is Running on node "10.4.42.5"

  @COMM-ATTACH
  Scenario: kubectl attach joins the running main process: what it reads on stdin it echoes
    Given a pod "console" running on node "10.4.42.5" with container:
      """
      name: shell
      image: registry.k8s.io/pause:3.9
      stdin: true
      """
    When I run "kubectl attach -i console" with stdin:
      """
      hello attach
      """
    Then kubectl prints "hello attach"
    When I run "kubectl attach -i console" over SPDY with stdin:
      """
      hello over spdy
      """
    Then kubectl prints "hello over spdy"

  @COMM-SPDY-HEADER-LIMIT
  Scenario: A SPDY header block that inflates past 1 MiB ends the exec session, no stream opened
    A header block is zlib-compressed, so a few KB on the wire can claim hundreds of MiB.
    The kubelet inflates one block to at most 1 MiB (its HTTP server's MaxHeaderBytes) and
    then ends the session with GOAWAY (status 1, PROTOCOL_ERROR): the compression context is
    the session's, so no later block could be read.
    When I open a SPDY exec session to pod "web" and send a header block that inflates to 2 MiB
    Then the SPDY session ends with a GOAWAY saying PROTOCOL_ERROR and opens no stream
