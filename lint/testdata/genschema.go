//go:build ignore

// genschema writes large-values.schema.json: a cluster-app style values
// schema the size of real ones (hundreds of KiB, draft 2020-12, shared
// $defs used through $ref), for the lint benchmark. It is deterministic;
// run it with `go generate ./lint`. The schema is mostly clean, with a
// sprinkle of the faults real schemas have, so that rules report
// something.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode"
)

// obj keeps keys in insertion order when marshalled.
type obj struct {
	keys []string
	vals map[string]any
}

func o(kv ...any) *obj {
	m := &obj{vals: map[string]any{}}
	for i := 0; i+1 < len(kv); i += 2 {
		m.set(kv[i].(string), kv[i+1])
	}
	return m
}

func (m *obj) set(k string, v any) *obj {
	if _, ok := m.vals[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.vals[k] = v
	return m
}

func (m *obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range m.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(m.vals[k])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func ref(name string, extra ...any) *obj {
	return o(append([]any{"$ref", "#/$defs/" + name}, extra...)...)
}

// sentence turns camelCase into a sentence-case title.
func sentence(name string) string {
	var words []string
	cur := []rune{}
	rs := []rune(name)
	for i, r := range rs {
		if i > 0 && unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))) {
			words = append(words, string(cur))
			cur = nil
		}
		cur = append(cur, r)
	}
	words = append(words, string(cur))
	for i, w := range words {
		if strings.ToUpper(w) == w && len(w) > 1 {
			continue // acronym
		}
		w = strings.ToLower(w)
		if i == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		words[i] = w
	}
	return strings.Join(words, " ")
}

func describe(what string) string {
	return fmt.Sprintf("Configures %s for the workload clusters of this installation.", what)
}

func str(title, desc string, extra ...any) *obj {
	return o(append([]any{"type", "string", "title", title, "description", desc}, extra...)...)
}

func integer(title, desc string, min, max int, extra ...any) *obj {
	return o(append([]any{"type", "integer", "title", title, "description", desc, "minimum", min, "maximum", max}, extra...)...)
}

func boolean(title, desc string, def bool) *obj {
	return o("type", "boolean", "title", title, "description", desc, "default", def)
}

func object(title, desc string, props *obj, extra ...any) *obj {
	return o(append([]any{"type", "object", "title", title, "description", desc, "additionalProperties", false, "properties", props}, extra...)...)
}

func defs() *obj {
	d := o()
	d.set("image", object("Container image", "The container image to run, by registry, repository and tag.", o(
		"registry", str("Registry", "Host name of the container registry to pull the image from.", "format", "hostname", "examples", []string{"gsoci.azurecr.io"}),
		"name", str("Repository", "Path of the image repository inside the registry, without the tag.", "pattern", "^[a-z0-9./_-]+$", "examples", []string{"giantswarm/cilium"}),
		"tag", str("Tag", "Image tag to run; leave empty to run the version shipped with the release.", "pattern", "^[A-Za-z0-9._-]{1,128}$", "examples", []string{"1.15.4"}),
		"pullPolicy", ref("pullPolicy"),
	)))
	d.set("pullPolicy", o("type", "string", "title", "Pull policy", "description", "Whether the container image should be pulled from a registry before the container starts.",
		"oneOf", []any{
			o("const", "IfNotPresent", "title", "Pull image if not present in the node"),
			o("const", "Always", "title", "Always pull up-to-date image"),
			o("const", "Never", "title", "Never pull image, use image available locally"),
		}, "default", "IfNotPresent"))
	d.set("quantity", o("type", "string", "title", "Quantity", "description", "A Kubernetes resource quantity such as a number of CPU cores or bytes of memory.",
		"pattern", `^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$`, "examples", []string{"500m", "2Gi"}))
	d.set("resourceList", object("Resource amounts", "Amounts of CPU and memory, as Kubernetes resource quantities.", o(
		"cpu", ref("quantity", "title", "CPU"),
		"memory", ref("quantity", "title", "Memory"),
	)))
	d.set("resources", object("Resources", "Compute resources the container requests from the scheduler and may use at most.", o(
		"requests", ref("resourceList", "title", "Requests"),
		"limits", ref("resourceList", "title", "Limits"),
	)))
	d.set("toleration", object("Toleration", "Lets the workload run on nodes with a matching taint, as a Kubernetes toleration.", o(
		"key", str("Key", "Taint key the toleration applies to; empty matches all keys.", "maxLength", 253),
		"operator", o("type", "string", "title", "Operator", "description", "How the key relates to the value of the taint the toleration matches.", "enum", []string{"Exists", "Equal"}),
		"value", str("Value", "Taint value the toleration matches when the operator is Equal.", "maxLength", 63),
		"effect", o("type", "string", "title", "Effect", "description", "Taint effect to match; empty matches all effects of the key.", "enum", []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}),
		"tolerationSeconds", integer("Toleration seconds", "How long the workload stays bound to a node after a NoExecute taint appears.", 0, 86400),
	)))
	d.set("tolerations", o("type", "array", "title", "Tolerations", "description", "Taints of nodes the workload may still be scheduled onto and keep running on.",
		"items", ref("toleration")))
	d.set("labels", o("type", "object", "title", "Labels", "description", "Kubernetes labels to add to the resources, as a map of label keys to values.",
		"additionalProperties", o("type", "string", "title", "Label value", "description", "Value of the label, at most 63 characters of letters, digits and dashes.", "maxLength", 63)))
	d.set("nodeSelector", o("type", "object", "title", "Node selector", "description", "Node labels a node must carry for the workload to be scheduled onto it.",
		"additionalProperties", o("type", "string", "title", "Label value", "description", "The value the node label must have for the workload to be scheduled there.", "maxLength", 63)))
	d.set("duration", o("type", "string", "title", "Duration", "description", "A duration in Go notation, as a number followed by a unit of h, m or s.",
		"pattern", `^([0-9]+(\.[0-9]+)?(h|m|s|ms))+$`, "examples", []string{"10m", "1h30m"}))
	d.set("cidr", o("type", "string", "title", "CIDR block", "description", "An IPv4 address range in CIDR notation, such as a subnet of the cluster network.",
		"pattern", `^([0-9]{1,3}\.){3}[0-9]{1,3}/[0-9]{1,2}$`, "examples", []string{"10.0.0.0/16"}))
	d.set("taint", object("Taint", "A taint the nodes of the pool carry, so only tolerating workloads run there.", o(
		"key", str("Key", "Key of the taint, as a qualified Kubernetes name of at most 253 characters.", "maxLength", 253),
		"value", str("Value", "Value of the taint, at most 63 characters of letters, digits and dashes.", "maxLength", 63),
		"effect", o("type", "string", "title", "Effect", "description", "What happens to pods that do not tolerate the taint on such a node.", "enum", []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}),
	), "required", []string{"key", "effect"}))
	d.set("machineHealthCheck", object("Machine health check", "Replaces machines whose node stays unhealthy for longer than the given timeouts.", o(
		"enabled", boolean("Enable", "Whether unhealthy machines are replaced automatically by the cluster controllers.", true),
		"maxUnhealthy", str("Maximum unhealthy nodes", "Stops remediation when more than this share of nodes is unhealthy at once.", "pattern", "^[0-9]{1,3}%$", "examples", []string{"40%"}),
		"nodeStartupTimeout", ref("duration", "title", "Node startup timeout"),
		"unhealthyNotReadyTimeout", ref("duration", "title", "Timeout for ready"),
		"unhealthyUnknownTimeout", ref("duration", "title", "Timeout for unknown condition"),
	)))
	d.set("nodePool", object("Node pool", "A group of worker nodes of the same instance type and configuration.", o(
		"instanceType", str("Instance type", "EC2 instance type of the nodes, which decides their CPU and memory.", "pattern", `^[a-z0-9]+\.[a-z0-9]+$`, "examples", []string{"m5.xlarge"}),
		"minSize", integer("Minimum number of nodes", "The autoscaler keeps at least this many nodes in the pool at all times.", 0, 500, "default", 3),
		"maxSize", integer("Maximum number of nodes", "The autoscaler adds nodes up to this number when workloads need room.", 1, 500, "default", 10),
		"rootVolumeSizeGB", integer("Root volume size in GB", "Size of the root volume of each node, which holds images and logs.", 8, 16384, "default", 300),
		"availabilityZones", o("type", "array", "title", "Availability zones", "description", "Zones the nodes are spread over; empty means every zone of the region.",
			"items", o("type", "string", "title", "Availability zone", "description", "Name of one availability zone of the region the cluster runs in.", "pattern", "^[a-z]{2}-[a-z]+-[0-9][a-z]$", "examples", []string{"eu-west-1a"}), "maxItems", 6),
		"customNodeLabels", o("type", "array", "title", "Custom node labels", "description", "Labels added to every node of the pool, each written as key=value.",
			"items", o("type", "string", "title", "Label", "description", "One label, written as a label key, an equals sign and the label value.", "pattern", "^[^=]+=[^=]*$", "examples", []string{"team=platform"})),
		"customNodeTaints", o("type", "array", "title", "Custom node taints", "description", "Taints added to every node of the pool, so only tolerating workloads run there.", "items", ref("taint")),
		"spotInstances", object("Spot instances", "Runs the pool on spot instances, which cost less and can be taken back.", o(
			"enabled", boolean("Enable", "Whether the nodes of this pool are requested as spot instances.", true),
			"maxPrice", o("type", "number", "title", "Maximum price", "description", "Highest hourly price in US dollars to pay for one spot instance.", "exclusiveMinimum", 0, "maximum", 100),
		)),
		"machineHealthCheck", ref("machineHealthCheck"),
	), "required", []string{"instanceType"}))
	d.set("app", object("App", "Configuration of a default app that is part of the cluster and deployed with it.", o(
		"enabled", boolean("Enable", "Whether the app is installed in the cluster together with the other default apps.", true),
		"version", str("Version", "Version of the app to install; empty installs the version of the release.", "pattern", `^v?[0-9]+\.[0-9]+\.[0-9]+(-.+)?$`, "examples", []string{"1.2.3"}),
		"namespace", str("Namespace", "Kubernetes namespace the app is installed into inside the cluster.", "pattern", "^[a-z0-9-]{1,63}$", "examples", []string{"kube-system"}),
		"values", o("type", "object", "title", "Values", "description", "Values passed to the app's chart, merged over the defaults of the release.", "additionalProperties", true),
		"extraConfigs", o("type", "array", "title", "Extra config maps or secrets", "description", "Config maps or secrets whose values are merged into the app's values in order.",
			"items", object("Config map or secret", "One config map or secret holding values for the app under the key values.", o(
				"kind", o("type", "string", "title", "Kind", "description", "Whether the values come from a config map or from a secret object.", "enum", []string{"configMap", "secret"}),
				"name", str("Name", "Name of the config map or secret in the namespace of the cluster.", "maxLength", 253),
				"priority", integer("Priority", "Order of merging: values with a higher priority win over lower ones.", 1, 150, "default", 25),
			), "required", []string{"kind", "name"})),
	)))
	return d
}

// component builds the configuration object of one cluster component,
// from shared definitions and a few settings of its own.
func component(name string, i int) *obj {
	title := sentence(name)
	props := o(
		"enabled", boolean("Enable", fmt.Sprintf("Whether %s runs in the cluster; turn it off only when replaced.", title), true),
		"image", ref("image", "title", "Container image"),
		"resources", ref("resources"),
		"replicas", integer("Replicas", "Number of pods to run; more pods survive the loss of a node.", 1, 20, "default", 2),
		"logLevel", o("type", "string", "title", "Log level", "description", "Least severe level of messages written to the log of each pod.", "enum", []string{"debug", "info", "warn", "error"}, "default", "info"),
		"tolerations", ref("tolerations"),
		"nodeSelector", ref("nodeSelector"),
		"podLabels", ref("labels", "title", "Pod labels"),
		"extraArgs", o("type", "object", "title", "Extra arguments", "description", "Command line flags added to the container, as a map of flag names to values.",
			"additionalProperties", o("type", "string", "title", "Flag value", "description", "Value of the flag, passed on to the process exactly as written here.", "maxLength", 1024)),
		"timeout", ref("duration", "title", "Timeout"),
		"metrics", object("Metrics", "Exposes metrics of the component for the monitoring of the installation.", o(
			"enabled", boolean("Enable", "Whether the pods expose a metrics endpoint that the monitoring scrapes.", true),
			"port", integer("Port", "Container port of the metrics endpoint, which must not clash with others.", 1024, 65535, "default", 9090+i),
			"interval", ref("duration", "title", "Scrape interval"),
			"path", str("Path", "HTTP path of the metrics endpoint on the port given above.", "pattern", "^/[a-z/]*$", "examples", []string{"/metrics"}),
		)),
	)
	// Faults real schemas have, now and then.
	switch i % 7 {
	case 1:
		props.set("debugMode", o("type", "boolean", "title", "Debug Mode", "default", false))
	case 3:
		props.set("configOverride", o("type", "string", "title", "Config override", "description", "raw configuration text"))
	case 5:
		props.set("extraEnv", o("type", "array", "title", "Extra environment variables", "description", "Environment variables added to the container, each a name and a value."))
	}
	return object(title, describe(title), props)
}

var components = []string{
	"cilium", "coreDNS", "kubeProxy", "etcd", "apiServer", "controllerManager", "scheduler", "kubelet",
	"containerd", "teleport", "oidc", "clusterAutoscaler", "metricsServer", "vpa", "certManager",
	"externalDns", "ingressNginx", "nodeProblemDetector", "kyverno", "prometheusAgent", "promtail",
	"grafanaAgent", "awsEbsCsiDriver", "awsLoadBalancerController", "awsPodIdentityWebhook", "irsa",
	"karpenter", "capiNodeLabeler", "chartOperator", "netExporter", "nodeExporter", "kubeStateMetrics",
	"securityBundle", "falco", "trivy", "starboard", "jiralert", "silenceOperator", "dexOperator",
	"athena", "kongGateway", "linkerd", "vault", "externalSecrets", "fluxAgent", "velero",
}

func main() {
	providerSpecific := o()
	for i, c := range components {
		providerSpecific.set(c, component(c, i))
	}
	apps := o()
	for _, a := range []string{"cilium", "coredns", "vpa", "certManager", "etcdBackup", "observability", "security", "networkPolicies", "externalDns", "clusterAutoscaler"} {
		apps.set(a, ref("app", "title", sentence(a)+" app"))
	}
	root := o(
		"$schema", "https://json-schema.org/draft/2020-12/schema",
		"$defs", defs(),
		"type", "object",
		"title", "Cluster values",
		"additionalProperties", false,
		"properties", o(
			"metadata", object("Metadata", "Descriptive settings of the cluster: its name, description, labels and owner.", o(
				"name", str("Cluster name", "Identifies this cluster uniquely within the installation.", "pattern", "^[a-z][a-z0-9]{0,9}$", "examples", []string{"devel001"}),
				"description", str("Cluster description", "User-friendly description of the purpose of this cluster, shown in the interfaces.", "maxLength", 100),
				"organization", str("Organization", "Organization that owns this cluster and is billed for the resources it uses.", "pattern", "^[a-z0-9-]+$", "examples", []string{"giantswarm"}),
				"servicePriority", o("type", "string", "title", "Service priority", "description", "The relative importance of this cluster, which orders alerts and upgrades.", "enum", []string{"highest", "medium", "lowest"}, "default", "highest"),
				"labels", ref("labels"),
			), "required", []string{"name", "organization"}),
			"connectivity", object("Connectivity", "Settings of networking: how the cluster reaches the outside world and is reached.", o(
				"baseDomain", str("Base DNS domain", "Every cluster of the installation gets its own subdomain of this domain.", "format", "hostname", "examples", []string{"example.gigantic.io"}),
				"network", object("Network", "Address ranges of the nodes, pods and services of the cluster.", o(
					"vpcCidr", ref("cidr", "title", "VPC address range"),
					"podCidr", ref("cidr", "title", "Pod address range"),
					"serviceCidr", ref("cidr", "title", "Service address range"),
					"internetGateway", boolean("Internet gateway", "Whether the subnets of the cluster route traffic through an internet gateway.", true),
				)),
				"proxy", object("Proxy", "An HTTP proxy every outgoing connection of the nodes has to go through.", o(
					"enabled", boolean("Enable", "Whether the nodes send outgoing HTTP and HTTPS traffic through a proxy.", true),
					"httpProxy", str("HTTP proxy", "Address of the proxy that plain HTTP connections are sent through.", "format", "uri", "examples", []string{"http://proxy.example.com:3128"}),
					"httpsProxy", str("HTTPS proxy", "Address of the proxy that encrypted HTTPS connections are sent through.", "format", "uri", "examples", []string{"http://proxy.example.com:3128"}),
					"noProxy", o("type", "array", "title", "Exceptions", "description", "Host names and address ranges that are reached directly, without the proxy.",
						"items", o("type", "string", "title", "Exception", "description", "One host name, domain suffix or address range to reach without the proxy.", "maxLength", 253)),
				)),
				"dns", object("DNS", "Name resolution of the cluster: resolvers and the zone of the cluster.", o(
					"resolvers", o("type", "array", "title", "Resolvers", "description", "Addresses of the DNS servers the nodes ask, in the order they are tried.",
						"items", o("type", "string", "title", "Resolver", "description", "Address of one DNS server the nodes and pods of the cluster ask first.", "format", "ipv4", "examples", []string{"10.0.0.2"}), "maxItems", 3),
					"privateZone", boolean("Private zone", "Whether the DNS zone of the cluster can only be resolved from inside the network.", true),
				)),
			), "required", []string{"baseDomain"}),
			"controlPlane", object("Control plane", "Configuration of the control plane of the cluster: its nodes, etcd and API server.", o(
				"instanceType", str("Node instance type", "EC2 instance type of the control plane nodes, which decides their size.", "pattern", `^[a-z0-9]+\.[a-z0-9]+$`, "examples", []string{"m5.xlarge"}),
				"replicas", integer("Number of nodes", "Number of control plane nodes; three survive the loss of one of them.", 1, 5, "default", 3),
				"rootVolumeSizeGB", integer("Root volume size in GB", "Size of the root volume of each control plane node, which holds images and logs.", 8, 16384, "default", 120),
				"etcdVolumeSizeGB", integer("Etcd volume size in GB", "Size of the volume that holds the etcd data of each control plane node.", 8, 16384, "default", 100),
				"apiServerPort", integer("API server port", "Port the Kubernetes API server of the cluster listens on behind the load balancer.", 1, 65535, "default", 443),
				"availabilityZones", o("type", "array", "title", "Availability zones", "description", "Zones the control plane nodes are spread over for high availability.",
					"items", o("type", "string", "title", "Availability zone", "description", "Name of one availability zone of the region the cluster runs in.", "pattern", "^[a-z]{2}-[a-z]+-[0-9][a-z]$", "examples", []string{"eu-west-1a"}), "maxItems", 3),
				"oidc", object("OIDC authentication", "Lets users log in to the API server with tokens of an OpenID Connect provider.", o(
					"issuerUrl", str("Issuer URL", "Address of the provider that issues the tokens, which must use HTTPS.", "format", "uri", "examples", []string{"https://dex.example.com"}),
					"clientId", str("Client ID", "Identifier of the API server as a client registered with the provider.", "maxLength", 253),
					"usernameClaim", str("Username claim", "Claim of the token that holds the user name, such as email or sub.", "maxLength", 63, "default", "email"),
					"groupsClaim", str("Groups claim", "Claim of the token that holds the groups the user is a member of.", "maxLength", 63, "default", "groups"),
				)),
				"machineHealthCheck", ref("machineHealthCheck"),
				"resources", ref("resources", "title", "API server resources"),
			)),
			"nodePools", o("type", "object", "title", "Node pools", "description", "Groups of worker nodes of the cluster, by the name of each pool.",
				"additionalProperties", ref("nodePool"), "default", o("def00", o("instanceType", "m5.xlarge"))),
			"internal", object("Internal", "Settings that end users do not configure and interfaces do not show.", o(
				"apps", object("Default apps", "The apps every cluster runs, with the settings of each.", apps),
				"migration", object("Migration", "Settings used while clusters move from the earlier implementation.", o(
					"irsaAdditionalDomain", str("IRSA additional domain", "Extra domain trusted for service account tokens during the move.", "format", "hostname", "examples", []string{"irsa.example.com"}),
					"apiBindPort", o("type", "integer", "title", "API bind port", "description", "Port the API server binds to on the node during the move.", "deprecated", true, "minimum", 1, "maximum", 65535),
				)),
			)),
			"providerSpecific", object("Provider specific", "Configuration specific to the infrastructure provider and its components.", providerSpecific),
			"managementCluster", str("Management cluster", "Name of the management cluster that manages this cluster, set by the platform.", "maxLength", 63),
			"provider", o("type", "string", "title", "Provider", "description", "Infrastructure provider the cluster runs on, set by the platform itself.", "enum", []string{"aws", "azure", "vsphere"}),
		),
		"required", []string{"metadata", "connectivity"},
	)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(root); err != nil {
		panic(err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "    "); err != nil {
		panic(err)
	}
	if err := os.WriteFile("testdata/large-values.schema.json", out.Bytes(), 0o644); err != nil {
		panic(err)
	}
	fmt.Printf("wrote testdata/large-values.schema.json: %d bytes\n", out.Len())
}
