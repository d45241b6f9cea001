package params_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSetOnCharts: -p as chart users write it against schemas derived from
// real charts (testdata/set/README.md): each must be accepted, with the
// value the schema types.
func TestSetOnCharts(t *testing.T) {
	t.Run("cluster-aws", func(t *testing.T) {
		s := mustSchemaFile(t, "testdata/set/cluster-aws.schema.json")
		old, err := os.ReadFile("testdata/set/cluster-aws.values.yaml")
		require.NoError(t, err)
		pool := "global.nodePools.pool0."
		karp := "global.nodePools.karp1."
		runSetCases(t, s, []setCase{
			{name: "issue 23: maxSize through the second oneOf branch", old: string(old), set: []string{pool + "maxSize=7"},
				want: map[string]string{"/global/nodePools/pool0/maxSize": `7`}},
			{name: "minSize and instance type", old: string(old), set: []string{pool + "minSize=1", pool + "instanceType=m6i.xlarge"},
				want: map[string]string{"/global/nodePools/pool0/minSize": `1`, "/global/nodePools/pool0/instanceType": `"m6i.xlarge"`}},
			{name: "zones as a Helm list", old: string(old), set: []string{pool + "availabilityZones={eu-west-1a,eu-west-1b}"},
				want: map[string]string{"/global/nodePools/pool0/availabilityZones": `["eu-west-1a", "eu-west-1b"]`}},
			{name: "labels list, and an element with = in it", old: string(old), set: []string{pool + "customNodeLabels={team=a,env=prod}", pool + "customNodeLabels[2]=tier=db"},
				want: map[string]string{"/global/nodePools/pool0/customNodeLabels": `["team=a", "env=prod", "tier=db"]`}},
			{name: "a taint as a flow mapping at a new index", old: string(old), set: []string{pool + "customNodeTaints[0]={key: dedicated, value: gpu, effect: NoSchedule}"},
				want: map[string]string{"/global/nodePools/pool0/customNodeTaints": `[{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]`}},
			{name: "a taint field by field", old: string(old), set: []string{pool + "customNodeTaints[0].key=dedicated", pool + "customNodeTaints[0].effect=NoExecute"},
				want: map[string]string{"/global/nodePools/pool0/customNodeTaints/0": `{"key": "dedicated", "effect": "NoExecute"}`}},
			{name: "spot instances", old: string(old), set: []string{pool + "spotInstances.enabled=true", pool + "spotInstances.maxPrice=0.5"},
				want: map[string]string{"/global/nodePools/pool0/spotInstances": `{"enabled": true, "maxPrice": 0.5}`}},
			{name: "a label whose key holds a slash, as a pointer", old: string(old), set: []string{"/global/nodePools/pool0/labels/node.kubernetes.io~1role=worker"},
				want: map[string]string{"/global/nodePools/pool0/labels/node.kubernetes.io~1role": `"worker"`}},
			{name: "a new pool", old: string(old), set: []string{"global.nodePools.pool1.maxSize=3", "global.nodePools.pool1.instanceType=r6i.large"},
				want: map[string]string{"/global/nodePools/pool1": `{"maxSize": 3, "instanceType": "r6i.large"}`}},
			{name: "karpenter: cpu limit as a number", old: string(old), set: []string{karp + "limits.cpu=2000"},
				want: map[string]string{"/global/nodePools/karp1/limits/cpu": `2000`}},
			{name: "karpenter: cpu limit as a quantity", old: string(old), set: []string{karp + "limits.cpu=500m"},
				want: map[string]string{"/global/nodePools/karp1/limits/cpu": `"500m"`}},
			{name: "karpenter: expiry and budgets", old: string(old), set: []string{karp + "expireAfter=24h", karp + "disruptionBudgets[0].nodes=20%"},
				want: map[string]string{"/global/nodePools/karp1/expireAfter": `"24h"`, "/global/nodePools/karp1/disruptionBudgets": `[{"nodes": "20%"}]`}},
			{name: "karpenter: requirements", old: string(old), set: []string{karp + "requirements[0].key=karpenter.sh/capacity-type", karp + "requirements[0].operator=In", karp + "requirements[0].values={spot,on-demand}"},
				want: map[string]string{"/global/nodePools/karp1/requirements": `[{"key": "karpenter.sh/capacity-type", "operator": "In", "values": ["spot", "on-demand"]}]`}},
			{name: "maxSize removed", old: string(old), set: []string{pool + "maxSize=null"},
				want: map[string]string{"/global/nodePools/pool0/maxSize": absent, "/global/nodePools/pool0/minSize": `3`}},
			{name: "resolver account: 12 digits stay a string", old: string(old), set: []string{"global.connectivity.dns.resolverRulesOwnerAccount=123456789012"},
				want: map[string]string{"/global/connectivity/dns/resolverRulesOwnerAccount": `"123456789012"`}},
			{name: "resolver account: empty", old: string(old), set: []string{"global.connectivity.dns.resolverRulesOwnerAccount="},
				want: map[string]string{"/global/connectivity/dns/resolverRulesOwnerAccount": `""`}},
			{name: "cert SANs", old: string(old), set: []string{"global.controlPlane.apiExtraCertSANs={a.example.com,b.example.com}"},
				want: map[string]string{"/global/controlPlane/apiExtraCertSANs": `["a.example.com", "b.example.com"]`}},
			{name: "metadata", old: string(old), set: []string{"global.metadata.labels.team=storage", "global.metadata.preventDeletion=true"},
				want: map[string]string{"/global/metadata/labels/team": `"storage"`, "/global/metadata/preventDeletion": `true`}},
			{name: "a field of the other branch is still refused", old: string(old), set: []string{pool + "expireAfter=24h"},
				errs: []string{"/global/nodePools/pool0"}},
		})
	})
	t.Run("bitnami-redis", func(t *testing.T) {
		s := mustSchemaFile(t, "testdata/set/redis.schema.json")
		runSetCases(t, s, []setCase{
			{name: "architecture", set: []string{"architecture=standalone"}, want: map[string]string{"/architecture": `"standalone"`}},
			{name: "auth", set: []string{"auth.enabled=false", "auth.password=s3cr3t"}, want: map[string]string{"/auth": `{"enabled": false, "password": "s3cr3t", "existingSecret": ""}`}},
			{name: "password removed back to its default", old: `auth: {password: x}`, set: []string{"auth.password=null"}, want: map[string]string{"/auth/password": `""`}},
			{name: "counts are numbers", set: []string{"master.count=3", "replica.replicaCount=0"}, want: map[string]string{"/master/count": `3`, "/replica/replicaCount": `0`}},
			{name: "commands list", set: []string{"master.disableCommands={FLUSHDB,FLUSHALL,KEYS}"}, want: map[string]string{"/master/disableCommands": `["FLUSHDB", "FLUSHALL", "KEYS"]`}},
			{name: "no disabled commands", set: []string{"master.disableCommands={}"}, want: map[string]string{"/master/disableCommands": `[]`}},
			{name: "array or string: a list", set: []string{"master.command={redis-server,--port,6380}"}, want: map[string]string{"/master/command": `["redis-server", "--port", 6380]`}},
			{name: "array or string: a string", set: []string{"master.command=/bin/sh"}, want: map[string]string{"/master/command": `"/bin/sh"`}},
			{name: "env vars by index", set: []string{"master.extraEnvVars[0].name=FOO", "master.extraEnvVars[0].value=bar"},
				want: map[string]string{"/master/extraEnvVars": `[{"name": "FOO", "value": "bar"}]`}},
			{name: "pull secrets", set: []string{"global.imagePullSecrets={regcred}", "image.pullSecrets[0]=regcred"},
				want: map[string]string{"/global/imagePullSecrets": `["regcred"]`, "/image/pullSecrets": `["regcred"]`}},
			{name: "object or string: a key", set: []string{"commonLabels.team=storage"}, want: map[string]string{"/commonLabels": `{"team": "storage"}`}},
			{name: "object or string: a mapping", set: []string{"replica.customLivenessProbe={exec: {command: [redis-cli, ping]}}"},
				want: map[string]string{"/replica/customLivenessProbe": `{"exec": {"command": ["redis-cli", "ping"]}}`}},
			{name: "sysctls", set: []string{"replica.podSecurityContext.sysctls[0].name=net.core.somaxconn", "replica.podSecurityContext.sysctls[0].value=10000"},
				want: map[string]string{"/replica/podSecurityContext/sysctls": `[{"name": "net.core.somaxconn", "value": 10000}]`}},
			{name: "free-form resources", set: []string{"replica.resources.limits.memory=256Mi"}, want: map[string]string{"/replica/resources": `{"limits": {"memory": "256Mi"}}`}},
			{name: "diagnostic mode", set: []string{"diagnosticMode.enabled=true", "diagnosticMode.command={sleep}", "diagnosticMode.args={infinity}"},
				want: map[string]string{"/diagnosticMode": `{"enabled": true, "command": ["sleep"], "args": ["infinity"]}`}},
			{name: "port", set: []string{"master.containerPorts.redis=6380"}, want: map[string]string{"/master/containerPorts/redis": `6380`}},
		})
	})
}
