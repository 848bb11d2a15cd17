#!/usr/bin/env bash
# Validates the Kubernetes manifests in deploy/kubernetes/ offline:
#  1. kubernetes-validate against the Kubernetes 1.30 schemas with --strict
#     (unknown or misspelled fields are errors). kubernetes-validate only
#     warns, and exits 0, when it has no schema for a kind/apiVersion (e.g.
#     `policy/v2`, or a Kustomization): here such a warning fails the check.
#  2. Cross-references no schema can see: Service and PDB selectors match the
#     pod labels, Service target ports name container ports, the HPA targets
#     the Deployment, and the grace period outlasts preStop + drain.
#
# Usage: .ci/kubernetes-checks.sh
# Installs kubernetes-validate from PyPI when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

k8s_version=1.30
dir=deploy/kubernetes

if ! command -v kubernetes-validate >/dev/null 2>&1; then
    echo "installing kubernetes-validate"
    python3 -m pip install --quiet kubernetes-validate
    hash -r
    if command -v pyenv >/dev/null 2>&1; then pyenv rehash; fi
fi
command -v kubernetes-validate >/dev/null 2>&1 ||
    { echo "cannot install kubernetes-validate (pip install kubernetes-validate)" >&2; exit 1; }

shopt -s nullglob
manifests=("$dir"/*.yaml)
[ ${#manifests[@]} -gt 0 ] || { echo "no manifests in $dir" >&2; exit 1; }

echo "kubernetes-validate $(kubernetes-validate --version) -k $k8s_version --strict:"
status=0
output=$(kubernetes-validate -k "$k8s_version" --strict "${manifests[@]}" 2>&1) || status=$?
printf '%s\n' "$output"
if [ "$status" -ne 0 ]; then
    echo "kubernetes check FAILED: the manifests do not validate" >&2
    exit 1
fi
if grep -q '^WARN' <<<"$output"; then
    echo "kubernetes check FAILED: a manifest could not be validated (unknown kind or apiVersion?)" >&2
    exit 1
fi

echo "cross-references:"
python3 - "${manifests[@]}" <<'PY'
import re
import sys

import yaml  # installed with kubernetes-validate

objects = {}
for path in sys.argv[1:]:
    with open(path) as f:
        for doc in yaml.safe_load_all(f):
            if doc:
                objects[(doc["kind"], doc["metadata"]["name"])] = doc

problems = []
deployments = [o for (kind, _), o in objects.items() if kind == "Deployment"]
if len(deployments) != 1:
    sys.exit(f"kubernetes check FAILED: expected one Deployment, found {len(deployments)}")
deployment = deployments[0]
name = deployment["metadata"]["name"]
pod = deployment["spec"]["template"]
labels = pod["metadata"].get("labels", {})
container_ports = {p.get("name"): p["containerPort"]
                   for c in pod["spec"]["containers"] for p in c.get("ports", [])}

def selects_pods(selector):
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())

if not selects_pods(deployment["spec"]["selector"].get("matchLabels")):
    problems.append(f"Deployment {name}: selector does not match its pod labels")

for (kind, obj_name), obj in sorted(objects.items()):
    where = f"{kind} {obj_name}"
    if kind == "Service":
        if not selects_pods(obj["spec"].get("selector")):
            problems.append(f"{where}: selector matches no pod of Deployment {name}")
        for port in obj["spec"]["ports"]:
            target = port.get("targetPort", port["port"])
            known = target in container_ports if isinstance(target, str) else target in container_ports.values()
            if not known:
                problems.append(f"{where}: targetPort {target!r} is no container port of Deployment {name}")
    elif kind == "PodDisruptionBudget":
        if not selects_pods(obj["spec"]["selector"].get("matchLabels")):
            problems.append(f"{where}: selector matches no pod of Deployment {name}")
    elif kind == "HorizontalPodAutoscaler":
        ref = obj["spec"]["scaleTargetRef"]
        if (ref["kind"], ref["name"]) != ("Deployment", name):
            problems.append(f"{where}: scales {ref['kind']} {ref['name']}, not Deployment {name}")

def seconds(text):
    match = re.fullmatch(r"([0-9.]+)(ms|s|m)?", text.strip())
    if not match:
        return None
    return float(match.group(1)) * {"ms": 0.001, "s": 1, "m": 60, None: 1}[match.group(2)]

grace = pod["spec"].get("terminationGracePeriodSeconds", 30)
for c in pod["spec"]["containers"]:
    env = {e["name"]: e.get("value") for e in c.get("env", [])}
    drain = seconds(env.get("SUDOKU_DRAIN_TIMEOUT") or "30s")
    pre_stop = ((c.get("lifecycle") or {}).get("preStop") or {}).get("sleep", {}).get("seconds", 0)
    if drain is None:
        problems.append(f"container {c['name']}: SUDOKU_DRAIN_TIMEOUT is not a duration")
    elif pre_stop + drain >= grace:
        problems.append(f"container {c['name']}: preStop {pre_stop}s + drain {drain:g}s "
                        f">= terminationGracePeriodSeconds {grace}")
    else:
        print(f"  grace period {grace}s > preStop {pre_stop}s + drain {drain:g}s")

if problems:
    for problem in problems:
        print(f"kubernetes check FAILED: {problem}", file=sys.stderr)
    sys.exit(1)
print(f"  selectors, target ports and the HPA target agree with Deployment {name}")
PY

echo "validated ${#manifests[@]} manifests against Kubernetes $k8s_version (strict): ${manifests[*]}"
