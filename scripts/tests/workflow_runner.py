#!/usr/bin/env python3
"""Runs one job of a GitHub Actions workflow on this machine, step by step, as a runner would: each
run: step through bash (-e, or -eo pipefail for `shell: bash`) with the workflow's, job's and step's
env:, the GITHUB_ENV/GITHUB_OUTPUT/GITHUB_STEP_SUMMARY files, `if: always()` and failure skipping.
The few actions we use are simulated (checkout/cache: nothing; upload/download-artifact: copies to
and from ARTIFACTS/<name>). Every ${{ }} is looked up in a table of the scenario's values; an
expression the table lacks fails the run, so a workflow change that needs a new value is noticed.

  workflow_runner.py WORKFLOW.yml JOB CONTEXT.json ARTIFACTS_DIR
CONTEXT.json: {"expressions": {"matrix.gpu": "h200", ...}, "env": {...}}. Prints the job log; writes
job outputs as JSON to $RUNNER_TEMP/job-outputs.json. Exit: 0 the job passed, 1 it failed, 2 misuse.
"""
import glob, json, os, re, shutil, subprocess, sys
import yaml

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def evaluate(text, table):
    def one(m):
        key = m.group(1)
        if key not in table:
            raise KeyError(f"no value for the expression '{key}' in the scenario")
        return str(table[key])
    return EXPR.sub(one, str(text))


def read_env_file(path):
    values = {}
    if os.path.exists(path):
        lines = open(path).read().splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            if "<<" in line and "=" not in line.split("<<")[0]:
                name, delim = line.split("<<", 1)
                body = []
                i += 1
                while lines[i] != delim:
                    body.append(lines[i]); i += 1
                values[name] = "\n".join(body)
            elif "=" in line:
                name, value = line.split("=", 1)
                values[name] = value
            i += 1
    return values


def copy_into(src, dest_dir, rel):
    target = os.path.join(dest_dir, rel)
    if os.path.isdir(src):
        shutil.copytree(src, target, dirs_exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
        shutil.copy2(src, target)


def simulate(uses, with_, artifacts, log):
    action = uses.split("@")[0]
    if action in ("actions/checkout", "actions/cache"):
        return 0
    if action == "actions/upload-artifact":
        dest = os.path.join(artifacts, with_["name"])
        found = 0
        for pattern in with_["path"].split("\n"):
            pattern = pattern.strip()
            if not pattern:
                continue
            for src in glob.glob(pattern.rstrip("/")):
                copy_into(src, dest, os.path.relpath(src))
                found += 1
        if not found and with_.get("if-no-files-found") == "error":
            log(f"upload-artifact: no files for {with_['name']}")
            return 1
        return 0
    if action == "actions/download-artifact":
        dest = with_.get("path", ".")
        names = [with_["name"]] if "name" in with_ else sorted(os.listdir(artifacts))
        for name in names:
            src = os.path.join(artifacts, name)
            if not os.path.isdir(src):
                log(f"download-artifact: no artifact {name}")
                return 1
            shutil.copytree(src, dest if "name" in with_ else os.path.join(dest, name), dirs_exist_ok=True)
        return 0
    log(f"no simulation for the action {action}")
    return 1


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    workflow_file, job_name, context_file, artifacts = sys.argv[1:]
    doc = yaml.safe_load(open(workflow_file))
    context = json.load(open(context_file))
    table = dict(context.get("expressions", {}))
    job = doc["jobs"][job_name]
    temp = os.environ["RUNNER_TEMP"]
    files = {k: os.path.join(temp, f"{k.lower()}") for k in ("GITHUB_ENV", "GITHUB_STEP_SUMMARY")}
    for f in files.values():
        open(f, "a").close()
    log = lambda text: print(f"[runner] {text}", flush=True)
    failed = False
    outputs_by_step = {}
    for index, step in enumerate(job.get("steps", [])):
        name = step.get("name") or step.get("uses") or step.get("run", "").split("\n")[0]
        condition = str(step.get("if", "success()"))
        runs = "always()" in condition or (not failed and condition in ("success()",))
        if not runs and not failed and condition not in ("success()",):
            runs = evaluate("${{ " + condition + " }}", table).lower() == "true"
        if not runs:
            log(f"step {index} skipped: {name}")
            continue
        log(f"step {index}: {name}")
        env = dict(os.environ)
        env.update(context.get("env", {}))
        env.update(read_env_file(files["GITHUB_ENV"]))
        for scope in (doc.get("env", {}), job.get("env", {}), step.get("env", {})):
            env.update({k: evaluate(v, table) for k, v in scope.items()})
        output_file = os.path.join(temp, f"output-{index}")
        open(output_file, "w").close()
        env.update(GITHUB_ENV=files["GITHUB_ENV"], GITHUB_STEP_SUMMARY=files["GITHUB_STEP_SUMMARY"],
                   GITHUB_OUTPUT=output_file, RUNNER_TOOL_CACHE=os.path.join(temp, "tool-cache"))
        if "uses" in step:
            with_ = {k: evaluate(v, table) for k, v in step.get("with", {}).items()}
            rc = simulate(step["uses"], with_, artifacts, log)
        else:
            shell = ["bash", "--noprofile", "--norc", "-eo", "pipefail"] if step.get("shell") == "bash" \
                else ["bash", "-e"]
            script = os.path.join(temp, f"step-{index}.sh")
            open(script, "w").write(step["run"])
            rc = subprocess.call(shell + [script], env=env)
        if "id" in step:
            for k, v in read_env_file(output_file).items():
                table[f"steps.{step['id']}.outputs.{k}"] = v
        if rc != 0:
            log(f"step {index} failed with exit {rc}: {name}")
            failed = True
    job_outputs = {k: evaluate(v, table) for k, v in job.get("outputs", {}).items()} if not failed else {}
    json.dump(job_outputs, open(os.path.join(temp, "job-outputs.json"), "w"))
    log(f"job {job_name}: {'failed' if failed else 'passed'}")
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyError as e:
        print(f"[runner] {e.args[0]}", file=sys.stderr)
        sys.exit(2)
