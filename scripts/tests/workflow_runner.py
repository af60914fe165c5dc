#!/usr/bin/env python3
"""Runs one job of a GitHub Actions workflow on this machine, step by step, as a runner would: each
run: step through bash (-e, or -eo pipefail for `shell: bash`) with the workflow's, job's and step's
env:, the GITHUB_ENV/GITHUB_OUTPUT/GITHUB_STEP_SUMMARY files, `if: always()` and failure skipping.
The few actions we use are simulated: checkout does nothing; cache and cache/restore restore from a
folder of saved caches (FAKE_CACHE_STORE: the exact key, else the newest entry starting with a
restore-key) and cache saves there when the job passed; upload/download-artifact copy to and from
ARTIFACTS/<name>. The workflow's trigger (the event, push branch filters) and the job's if: are
checked first: a run that GitHub would not start or a job it would skip says so and exits 0. Every
${{ }} is evaluated with the context values in a table of the scenario's values; a value the table
lacks fails the run, so a workflow change that needs a new value is noticed.

  workflow_runner.py WORKFLOW.yml JOB CONTEXT.json ARTIFACTS_DIR
CONTEXT.json: {"expressions": {"matrix.gpu": "h200", ...}, "env": {...}}. RUNNER_TOOL_CACHE, when set,
is the tool cache (else a folder of RUNNER_TEMP). Prints the job log; writes
job outputs as JSON to $RUNNER_TEMP/job-outputs.json. Exit: 0 the job passed, 1 it failed, 2 misuse.
"""
import fnmatch, glob, json, os, re, shutil, subprocess, sys
import yaml

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
TOKEN = re.compile(r"""\s*(?:(?P<str>'(?:[^']|'')*')|(?P<num>-?[0-9]+(?:\.[0-9]+)?)
    |(?P<op>==|!=|<=|>=|&&|\|\||[!<>(),])
    |(?P<name>[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_*][A-Za-z0-9_-]*|\[[^\]]*\])*))""", re.X)
STATUS_FUNCTIONS = ("success", "failure", "always", "cancelled")


class Expression:
    """The part of GitHub's expression language our workflows use: literals, context values (looked up
    by their text in the scenario's table), ! == != < > <= >= && || ( ), status functions and
    startsWith/endsWith/contains. Strings compare case-insensitively, as on GitHub."""

    def __init__(self, text, table, failed):
        self.tokens, pos = [], 0
        while pos < len(text):
            m = TOKEN.match(text, pos)
            if not m or m.end() == pos:
                if text[pos:].strip() == "":
                    break
                raise KeyError(f"cannot read the expression '{text}' at '{text[pos:]}'")
            kind = m.lastgroup
            self.tokens.append((kind, m.group(kind)))
            pos = m.end()
        self.i, self.table, self.failed, self.text = 0, table, failed, text

    def value(self):
        result = self.or_()
        if self.i != len(self.tokens):
            raise KeyError(f"cannot read the expression '{self.text}'")
        return result

    def peek(self):
        return self.tokens[self.i][1] if self.i < len(self.tokens) else None

    def take(self, expected=None):
        token = self.tokens[self.i]
        if expected is not None and token[1] != expected:
            raise KeyError(f"expected '{expected}' in the expression '{self.text}'")
        self.i += 1
        return token

    def or_(self):
        left = self.and_()
        while self.peek() == "||":
            self.take()
            right = self.and_()
            left = left if truthy(left) else right
        return left

    def and_(self):
        left = self.compare()
        while self.peek() == "&&":
            self.take()
            right = self.compare()
            left = right if truthy(left) else left
        return left

    def compare(self):
        left = self.unary()
        while self.peek() in ("==", "!=", "<", ">", "<=", ">="):
            op = self.take()[1]
            right = self.unary()
            a, b = comparable(left), comparable(right)
            if op in ("==", "!="):
                left = (a == b) == (op == "==")
            else:
                left = {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
        return left

    def unary(self):
        if self.peek() == "!":
            self.take()
            return not truthy(self.unary())
        return self.primary()

    def primary(self):
        kind, text = self.take()
        if text == "(":
            inner = self.or_()
            self.take(")")
            return inner
        if kind == "str":
            return text[1:-1].replace("''", "'")
        if kind == "num":
            return float(text)
        if kind != "name":
            raise KeyError(f"unexpected '{text}' in the expression '{self.text}'")
        if self.peek() == "(":
            self.take()
            args = []
            while self.peek() != ")":
                args.append(self.or_())
                if self.peek() == ",":
                    self.take()
            self.take(")")
            return self.call(text, args)
        if text in ("true", "false"):
            return text == "true"
        if text == "null":
            return None
        if text not in self.table:
            raise KeyError(f"no value for the expression '{text}' in the scenario")
        return self.table[text]

    def call(self, name, args):
        if name == "always":
            return True
        if name == "cancelled":
            return False
        if name == "success":
            return not self.failed
        if name == "failure":
            return self.failed
        s = [str(a).lower() for a in args]
        if name == "startsWith":
            return s[0].startswith(s[1])
        if name == "endsWith":
            return s[0].endswith(s[1])
        if name == "contains":
            return s[1] in (args[0] if isinstance(args[0], list) else s[0])
        raise KeyError(f"no simulation for the function {name}()")


def truthy(v):
    return v not in (False, None, "", 0, 0.0)


def comparable(v):
    if isinstance(v, str):
        return v.lower()
    if isinstance(v, (dict, list)):
        return json.dumps(v, sort_keys=True)
    return v


def as_text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return json.dumps(v) if isinstance(v, (dict, list)) else str(v)


def condition_holds(text, table, failed):
    """An if: as GitHub reads it: without a status function, success() && (the condition)."""
    text = str(text).strip()
    m = re.fullmatch(r"\$\{\{(.*)\}\}", text, re.S)
    text = m.group(1).strip() if m else text
    result = truthy(Expression(text, table, failed).value())
    if not re.search(r"\b(%s)\s*\(" % "|".join(STATUS_FUNCTIONS), text):
        result = result and not failed
    return result


def evaluate(text, table):
    return EXPR.sub(lambda m: as_text(Expression(m.group(1), table, False).value()), str(text))


def branch_pattern(pattern):
    """A branch filter of on.push as a regex: ** any characters, * any but /, ? and + as in GitHub's
    filter cheat sheet."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] in "?+":
            out, i = out + pattern[i], i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + r"\Z")


def not_triggered(on, table):
    """Why the workflow would not start for the scenario's event and ref, or None when it would."""
    event = table.get("github.event_name")
    events = {on: None} if isinstance(on, str) else ({e: None for e in on} if isinstance(on, list) else on)
    if event not in events:
        return f"it has no {event} trigger"
    filters = events[event] or {}
    if event != "push" or not ({"branches", "branches-ignore", "tags", "tags-ignore"} & set(filters)):
        return None
    ref = table.get("github.ref", "")
    if not ref.startswith("refs/heads/"):
        return None if {"tags", "tags-ignore"} & set(filters) else f"{ref} is not a branch"
    branch = ref[len("refs/heads/"):]
    if "branches-ignore" in filters:
        for p in filters["branches-ignore"]:
            if branch_pattern(p).match(branch):
                return f"branches-ignore '{p}' matches the branch {branch}"
        return None
    if "branches" in filters:
        matched = False
        for p in filters["branches"]:
            negated = p.startswith("!")
            if branch_pattern(p.lstrip("!")).match(branch):
                matched = not negated
        return None if matched else f"no branches filter matches the branch {branch}"
    return f"{ref} is not a tag"


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


def cache_restore(with_, store, log):
    """actions/cache's restore: the exact key, else the newest entry whose key starts with a restore-key
    (in order). Returns whether the key itself was hit."""
    key = with_["key"]
    prefixes = [line.strip() for line in with_.get("restore-keys", "").split("\n") if line.strip()]
    log(f"cache restore: key {key}; restore-keys {', '.join(prefixes) or '(none)'}")
    saved = sorted(os.listdir(store)) if os.path.isdir(store) else []
    hit = key if key in saved else None
    for prefix in prefixes if hit is None else []:
        found = [k for k in saved if k.startswith(prefix)]
        if found:
            hit = max(found, key=lambda k: os.path.getmtime(os.path.join(store, k)))
            break
    if hit is None:
        log("cache miss")
        return False
    shutil.copytree(os.path.join(store, hit), with_["path"], dirs_exist_ok=True)
    log(f"cache restored from key {hit}")
    return hit == key


def simulate(uses, with_, artifacts, store, post_steps, log):
    action = uses.split("@")[0]
    if action == "actions/checkout":
        return 0
    if action == "actions/cache/restore":
        cache_restore(with_, store, log)
        return 0
    if action == "actions/cache":
        if not cache_restore(with_, store, log):  # saved at the end of a job that passed, as GitHub does
            post_steps.append(("cache save", dict(with_)))
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
        available = sorted(os.listdir(artifacts))
        if "name" in with_:
            names = [with_["name"]]
        elif "pattern" in with_:
            names = [n for n in available if fnmatch.fnmatchcase(n, with_["pattern"])]
        else:
            names = available
        log(f"download-artifact: {', '.join(names) or '(none)'} (run {with_.get('run-id', 'this one')})")
        for name in names:
            src = os.path.join(artifacts, name)
            if not os.path.isdir(src):
                log(f"download-artifact: no artifact {name}")
                return 1
            one = "name" in with_ or str(with_.get("merge-multiple", "false")).lower() == "true"
            shutil.copytree(src, dest if one else os.path.join(dest, name), dirs_exist_ok=True)
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
    log = lambda text: print(f"[runner] {text}", flush=True)
    outputs_file = os.path.join(temp, "job-outputs.json")
    json.dump({}, open(outputs_file, "w"))
    why = not_triggered(doc.get("on", doc.get(True)), table)
    if why:
        log(f"workflow not triggered: {why}")
        return 0
    if "if" in job and not condition_holds(job["if"], table, False):
        log(f"job {job_name} skipped: its if: is false")
        return 0
    files = {k: os.path.join(temp, f"{k.lower()}") for k in ("GITHUB_ENV", "GITHUB_STEP_SUMMARY")}
    for f in files.values():
        open(f, "a").close()
    # The runner's tool cache outlives a job on a persistent runner: a scenario may name one.
    tool_cache = os.environ.get("RUNNER_TOOL_CACHE") or os.path.join(temp, "tool-cache")
    store = os.environ.get("FAKE_CACHE_STORE") or os.path.join(temp, "cache-store")
    failed = False
    post_steps = []
    for index, step in enumerate(job.get("steps", [])):
        name = step.get("name") or step.get("uses") or step.get("run", "").split("\n")[0]
        if not condition_holds(step.get("if", "success()"), table, failed):
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
                   GITHUB_OUTPUT=output_file, RUNNER_TOOL_CACHE=tool_cache)
        if "uses" in step:
            with_ = {k: evaluate(v, table) for k, v in step.get("with", {}).items()}
            rc = simulate(step["uses"], with_, artifacts, store, post_steps, log)
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
    for kind, with_ in post_steps:
        if kind == "cache save" and not failed and os.path.isdir(with_["path"]):
            target = os.path.join(store, with_["key"])
            shutil.copytree(with_["path"], target, dirs_exist_ok=True)
            os.utime(target)
            log(f"cache saved under key {with_['key']}")
    job_outputs = {k: evaluate(v, table) for k, v in job.get("outputs", {}).items()} if not failed else {}
    json.dump(job_outputs, open(outputs_file, "w"))
    log(f"job {job_name}: {'failed' if failed else 'passed'}")
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyError as e:
        print(f"[runner] {e.args[0]}", file=sys.stderr)
        sys.exit(2)
