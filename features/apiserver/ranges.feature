@needs-http
Feature: Numbers out of their range are refused, never a server error
  Go decodes a request into typed fields: a number that does not fit an int32 field
  (replicas) is a decoding error (400 BadRequest), a query parameter past int64
  (gracePeriodSeconds) fails its conversion (400), and validation bounds what fits but makes
  no sense (activeDeadlineSeconds at least 1: 422). None of them reaches storage.
  Source: 002 §2.4 (API Server). Upstream: sigs.k8s.io/json UnmarshalTypeError, apimachinery's
  query parameter conversion (strconv.ParseInt), ValidatePodSpec (pkg/apis/core/validation).

  Background:
    Given a ready node "n1"
    And a file "big.yaml" containing:
      """
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: big}
      spec:
        replicas: 2147483648
        selector: {matchLabels: {app: big}}
        template:
          metadata: {labels: {app: big}}
          spec:
            containers: [{name: c, image: busybox}]
      """
    And a file "deadline.yaml" containing:
      """
      apiVersion: v1
      kind: Pod
      metadata: {name: deadline}
      spec:
        activeDeadlineSeconds: -5
        containers: [{name: c, image: busybox}]
      """

  @API-INT-RANGES
  Scenario: replicas past int32, a grace period past int64 and a negative deadline are refused
    When I run "kubectl create -f big.yaml"
    Then kubectl fails with the line "Error from server (BadRequest): error when creating "big.yaml": Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32"
    When I run "kubectl get deployment big"
    Then kubectl fails with the line "Error from server (NotFound): deployments.apps "big" not found"
    When I run "kubectl create -f deadline.yaml"
    Then kubectl fails with "spec.activeDeadlineSeconds: Invalid value: -5: must be between 1 and 2147483647, inclusive"
    When I run "kubectl run web --image=nginx"
    And I run "kubectl delete --raw /api/v1/namespaces/default/pods/web?gracePeriodSeconds=99999999999999999999"
    Then kubectl fails with the line "Error from server (BadRequest): strconv.ParseInt: parsing "99999999999999999999": value out of range"
    When I run "kubectl get pod web -o jsonpath={.metadata.name}"
    Then kubectl prints "web"
