#!/usr/bin/env bash
# Prints a workflow file as JSON, for jq (python3-yaml; jq reads no YAML). YAML 1.1 reads the key `on`
# as true: it is renamed back to "on".
#
#   workflow_json.sh WORKFLOW.yml
set -euo pipefail
(($# == 1)) || { echo "usage: $0 WORKFLOW.yml" >&2; exit 2; }
python3 -c '
import json, sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
if True in doc:
    doc["on"] = doc.pop(True)
json.dump(doc, sys.stdout)
' "$1"
