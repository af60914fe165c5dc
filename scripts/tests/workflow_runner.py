#!/usr/bin/env python3
"""Runs one job of a GitHub Actions workflow on this machine, step by step, as a runner would: each
run: step through bash (-e, or -eo pipefail for `shell: bash`) with the workflow's, job's and step's
env:, the GITHUB_ENV/GITHUB_OUTPUT/GITHUB_STEP_SUMMARY files, `if: always()` and failure skipping.
The few actions we use are simulated: checkout of the workspace does nothing (the scenario's working
folder is the checkout), checkout into a `path:` clones the repository from FAKE_GITHUB/<owner>/<name>
at `ref:`; cache and cache/restore restore from a folder of saved caches (FAKE_CACHE_STORE: the exact
key, else the newest entry starting with a restore-key) and cache saves there when the job passed;
upload/download-artifact copy to and from ARTIFACTS/<name> (an upload's root is the least common
ancestor of its paths, as on GitHub). The workflow's trigger (the event, push branch filters), the
results of the jobs it needs (needs.<job>.result, success unless the scenario says otherwise) and the
job's if: are checked first: a run that GitHub would not start or a job it would skip says so and exits
0. A strategy.matrix is expanded and logged; the combination run is the one whose values the scenario's
matrix.* name (else the first). Every ${{ }} is evaluated with the context values in a table of the
scenario's values; a value the table lacks fails the run, so a workflow change that needs a new value is
noticed.

JOB may be CALLER/JOB (or deeper): the job CALLER of the workflow calls a reusable workflow (uses:
./.github/workflows/<file>.yml, or owner/name/<path>@ref from FAKE_GITHUB), and JOB of that one runs,
as GitHub does it: the call's with: is evaluated in the caller's context, checked against the called
workflow's on.workflow_call.inputs (unknown or missing required inputs fail, defaults apply, types are
converted) and becomes its inputs context; a called job may not ask for a permission that the calling
job (or its workflow) does not grant.

  workflow_runner.py WORKFLOW.yml JOB CONTEXT.json ARTIFACTS_DIR
CONTEXT.json: {"expressions": {"matrix.gpu": "h200", ...}, "env": {...}}. RUNNER_TOOL_CACHE, when set,
is the tool cache (else a folder of RUNNER_TEMP). Prints the job log; writes the job's outputs as JSON
to $RUNNER_TEMP/job-outputs.json and, for a called job, the called workflow's outputs that it can
evaluate (those of this job) to $RUNNER_TEMP/workflow-outputs.json.
Exit: 0 the job passed (or did not run), 1 it failed or the call is invalid, 2 misuse.
"""
import fnmatch, glob, json, os, re, shutil, subprocess, sys
import yaml

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
TOKEN = re.compile(r"""\s*(?:(?P<str>'(?:[^']|'')*')|(?P<num>-?[0-9]+(?:\.[0-9]+)?)
    |(?P<op>==|!=|<=|>=|&&|\|\||[!<>(),])
    |(?P<name>[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_*][A-Za-z0-9_-]*|\[[^\]]*\])*))""", re.X)
STATUS_FUNCTIONS = ("success", "failure", "always", "cancelled")
PERMISSION_LEVELS = {"none": 0, "read": 1, "write": 2}


class InvalidCall(Exception):
    """A workflow call GitHub would refuse to start (an input, a permission)."""


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
        if name == "fromJSON":
            return json.loads(as_text(args[0]))
        if name == "toJSON":
            return json.dumps(args[0], indent=2)
        if name == "format":
            text = as_text(args[0])
            return re.sub(r"\{(\d+)\}", lambda m: as_text(args[1 + int(m.group(1))]), text)
        if name == "join":
            sep = as_text(args[1]) if len(args) > 1 else ","
            return sep.join(as_text(a) for a in args[0]) if isinstance(args[0], list) else as_text(args[0])
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


def evaluate_value(value, table):
    """A YAML value with its expressions evaluated: a string that is one ${{ }} keeps the expression's
    type (a matrix from fromJSON, a list of runner labels); lists and mappings are evaluated inside."""
    if isinstance(value, str):
        m = re.fullmatch(r"\s*\$\{\{(.*?)\}\}\s*", value, re.S)
        return Expression(m.group(1).strip(), table, False).value() if m else evaluate(value, table)
    if isinstance(value, list):
        return [evaluate_value(v, table) for v in value]
    if isinstance(value, dict):
        return {k: evaluate_value(v, table) for k, v in value.items()}
    return value


def matrix_combinations(matrix):
    """The jobs of a strategy.matrix: the product of its vectors, less exclude, with include merged into
    the combinations whose original values it does not change (else added); include alone: one job each."""
    vectors = {k: v for k, v in matrix.items() if k not in ("include", "exclude")}
    include, exclude = matrix.get("include") or [], matrix.get("exclude") or []
    if not vectors:
        return [dict(entry) for entry in include]
    combos = [{}]
    for key, values in vectors.items():
        combos = [dict(c, **{key: v}) for c in combos for v in values]
    combos = [c for c in combos if not any(all(c.get(k) == v for k, v in e.items()) for e in exclude)]
    for entry in include:
        merged = False
        for c in combos:
            if all(c.get(k) == v for k, v in entry.items() if k in vectors):
                c.update(entry)
                merged = True
        if not merged:
            combos.append(dict(entry))
    return combos


def permissions_of(value):
    """A permissions: value as {scope: level}; None when absent (the token's default applies)."""
    if value is None:
        return None
    if isinstance(value, str):
        level = {"read-all": "read", "write-all": "write"}[value]
        return {"*": PERMISSION_LEVELS[level]}
    return {k: PERMISSION_LEVELS[v] for k, v in value.items()}


def check_permissions(granted, called, caller_name):
    """A called job may ask for no more than the calling job grants (GitHub refuses to start the run)."""
    granted = permissions_of(granted)
    if granted is None:
        return
    for name, job in called.get("jobs", {}).items():
        asked = permissions_of(job.get("permissions", called.get("permissions")))
        for scope, level in (asked or {}).items():
            allowed = granted.get(scope, granted.get("*", 0))
            if level > allowed:
                raise InvalidCall(f"the called job {name} asks for {scope}: {level_name(level)}, but the calling "
                                  f"job {caller_name} grants {level_name(allowed)}")


def level_name(level):
    return {v: k for k, v in PERMISSION_LEVELS.items()}[level]


def load_called(uses, log):
    """The workflow a job calls: ./.github/workflows/<file> from the working folder (the caller's
    commit), owner/name/<path>@ref from the repository FAKE_GITHUB/owner/name at that ref."""
    if uses.startswith("./"):
        return yaml.safe_load(open(uses))
    m = re.fullmatch(r"([^/@]+/[^/@]+)/([^@]+)@(.+)", uses)
    if not m:
        raise InvalidCall(f"cannot read the workflow reference '{uses}'")
    repo, path, ref = m.groups()
    where = os.path.join(os.environ.get("FAKE_GITHUB", "/nonexistent"), repo)
    shown = subprocess.run(["git", "-C", where, "show", f"{ref}:{path}"], capture_output=True, text=True)
    if shown.returncode != 0:
        raise InvalidCall(f"no workflow {path} at {ref} in {repo} (FAKE_GITHUB): {shown.stderr.strip()}")
    log(f"called workflow {path} read from {repo}@{ref}")
    return yaml.safe_load(shown.stdout)


def call_inputs(caller_job, called, table):
    """The inputs context of a called workflow: the call's with:, evaluated in the caller's context,
    checked against on.workflow_call.inputs, with their defaults."""
    on = called.get("on", called.get(True)) or {}
    declared = ((on.get("workflow_call") if isinstance(on, dict) else None) or {}).get("inputs") or {}
    if not (isinstance(on, dict) and "workflow_call" in on) and on != "workflow_call":
        raise InvalidCall(f"{caller_job['uses']} has no workflow_call trigger")
    given = {k: evaluate_value(v, table) for k, v in (caller_job.get("with") or {}).items()}
    unknown = sorted(set(given) - set(declared))
    if unknown:
        raise InvalidCall(f"invalid input(s) {', '.join(unknown)}: not declared by {caller_job['uses']}")
    inputs = {}
    for name, spec in declared.items():
        spec = spec or {}
        if name in given:
            value = given[name]
        elif spec.get("required"):
            raise InvalidCall(f"input required and not supplied: {name}")
        else:
            value = spec.get("default", "")
        kind = spec.get("type", "string")
        if kind == "boolean":
            value = value if isinstance(value, bool) else str(value).lower() == "true"
        elif kind == "number":
            value = float(value)
        else:
            value = as_text(value)
        inputs[f"inputs.{name}"] = value
    return inputs


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
    target = os.path.normpath(os.path.join(dest_dir, rel))
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


def checkout(with_, table, log):
    """actions/checkout: the workspace is the scenario's working folder (nothing to do); into a path:,
    a clone of FAKE_GITHUB/<repository> at ref:, detached, as the action leaves it."""
    repo = with_.get("repository") or table.get("github.repository", "")
    ref = with_.get("ref") or "(the event's commit)"
    if "path" not in with_:
        log(f"checkout {repo}@{ref}")
        return 0
    path = with_["path"]
    log(f"checkout {repo}@{ref} into {path}")
    source = os.path.join(os.environ.get("FAKE_GITHUB", "/nonexistent"), repo)
    shutil.rmtree(path, ignore_errors=True)
    git = lambda *args: subprocess.run(["git", *args], capture_output=True, text=True)
    cloned = git("clone", "-q", "--no-checkout", "--shared", source, path)
    if cloned.returncode != 0:
        log(f"checkout: cannot clone {repo} (FAKE_GITHUB): {cloned.stderr.strip()}")
        return 1
    for candidate in (with_.get("ref"), f"origin/{with_.get('ref')}") if with_.get("ref") else ("HEAD",):
        if git("-C", path, "checkout", "-q", "--detach", candidate).returncode == 0:
            return 0
    log(f"checkout: {repo} has no ref {with_.get('ref')}")
    return 1


def upload(with_, artifacts, log):
    """upload-artifact: the files of every path (globs allowed), kept relative to the least common
    ancestor of the paths (a folder alone: its contents)."""
    dest = os.path.join(artifacts, with_["name"])
    sources = []
    for pattern in with_["path"].split("\n"):
        pattern = pattern.strip()
        if pattern:
            sources += glob.glob(pattern.rstrip("/"))
    if not sources:
        if with_.get("if-no-files-found") == "error":
            log(f"upload-artifact: no files for {with_['name']}")
            return 1
        return 0
    roots = [os.path.abspath(src if os.path.isdir(src) else os.path.dirname(src)) for src in sources]
    root = os.path.commonpath(roots)
    for src in sources:
        copy_into(src, dest, os.path.relpath(os.path.abspath(src), root))
    return 0


def simulate(uses, with_, artifacts, store, post_steps, table, log):
    action = uses.split("@")[0]
    if action == "actions/checkout":
        return checkout(with_, table, log)
    if action == "actions/cache/restore":
        cache_restore(with_, store, log)
        return 0
    if action == "actions/cache":
        if not cache_restore(with_, store, log):  # saved at the end of a job that passed, as GitHub does
            post_steps.append(("cache save", dict(with_)))
        return 0
    if action == "actions/upload-artifact":
        return upload(with_, artifacts, log)
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
    if action == "actions/upload-pages-artifact":  # the site folder, as the artifact github-pages
        name = with_.get("name", "github-pages")
        if not os.path.isfile(os.path.join(with_["path"], "index.html")):
            log(f"upload-pages-artifact: no index.html in {with_['path']}")
            return 1
        shutil.copytree(with_["path"], os.path.join(artifacts, name), dirs_exist_ok=True)
        log(f"upload-pages-artifact: {name}")
        return 0
    if action == "actions/deploy-pages":  # publishes what upload-pages-artifact left
        name = with_.get("artifact_name", "github-pages")
        if not os.path.isdir(os.path.join(artifacts, name)):
            log(f"deploy-pages: no artifact {name}")
            return 1
        log(f"deploy-pages: published {name}")
        return 0
    log(f"no simulation for the action {action}")
    return 1


def skipped(job, table):
    """Why GitHub would skip the job, or None: a job it needs did not succeed (unless its if: calls a
    status function), or its if: is false."""
    needs = job.get("needs", [])
    condition = job.get("if")
    if not re.search(r"\b(%s)\s*\(" % "|".join(STATUS_FUNCTIONS), str(condition or "")):
        for need in [needs] if isinstance(needs, str) else needs:
            result = table.get(f"needs.{need}.result", "success")
            if result != "success":
                return f"{need}, a job it needs, did not succeed ({result})"
    if condition is not None and not condition_holds(condition, table, False):
        return "its if: is false"
    return None


def enter(doc, path, table, log):
    """Follows CALLER/.../JOB through the workflow calls: (workflow, job name, job, table, called), or
    None when GitHub would skip a job on the way."""
    parts = path.split("/")
    called = False
    for depth, name in enumerate(parts):
        if name not in doc.get("jobs", {}):
            raise KeyError(f"no job {name} in the workflow")
        job = doc["jobs"][name]
        why = skipped(job, table)
        if why:
            log(f"job {name} skipped: {why}")
            return None
        if depth == len(parts) - 1:
            if "uses" in job:
                raise KeyError(f"job {name} calls {job['uses']}: name one of its jobs, {name}/<job>")
            return doc, name, job, table, called
        if "uses" not in job:
            raise KeyError(f"job {name} calls no workflow")
        callee = load_called(job["uses"], log)
        check_permissions(job.get("permissions", doc.get("permissions")), callee, name)
        inputs = call_inputs(job, callee, table)
        log(f"job {name} calls {job['uses']} with "
            + ", ".join(f"{k[len('inputs.'):]}={as_text(v)}" for k, v in inputs.items()))
        table = {k: v for k, v in table.items() if not k.startswith("inputs.")}
        table.update(inputs)
        doc, called = callee, True


def pick_combination(job, table, log):
    """The table with matrix.* of the combination to run (the scenario's matrix.* values choose it), or
    None when the matrix has no such combination."""
    strategy = job.get("strategy") or {}
    if "matrix" not in strategy:
        return table
    combos = matrix_combinations(evaluate_value(strategy["matrix"], table))
    log("matrix: " + " | ".join(json.dumps(c, separators=(",", ":")) for c in combos))
    wanted = {k[len("matrix."):]: v for k, v in table.items() if k.startswith("matrix.")}
    chosen = [c for c in combos if all(as_text(c[k]) == as_text(v) for k, v in wanted.items() if k in c)]
    if not chosen:
        log(f"the matrix has no combination with {', '.join(f'{k}={v}' for k, v in wanted.items()) or 'any value'}")
        return None
    table = {k: v for k, v in table.items() if not k.startswith("matrix.")}
    table.update({f"matrix.{k}": v for k, v in chosen[0].items()})
    return table


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    workflow_file, job_path, context_file, artifacts = sys.argv[1:]
    doc = yaml.safe_load(open(workflow_file))
    context = json.load(open(context_file))
    table = dict(context.get("expressions", {}))
    temp = os.environ["RUNNER_TEMP"]
    log = lambda text: print(f"[runner] {text}", flush=True)
    outputs_file = os.path.join(temp, "job-outputs.json")
    workflow_outputs_file = os.path.join(temp, "workflow-outputs.json")
    json.dump({}, open(outputs_file, "w"))
    json.dump({}, open(workflow_outputs_file, "w"))
    why = not_triggered(doc.get("on", doc.get(True)), table)
    if why:
        log(f"workflow not triggered: {why}")
        return 0
    try:
        entered = enter(doc, job_path, table, log)
    except InvalidCall as e:
        log(f"invalid workflow call: {e}")
        return 1
    if entered is None:
        return 0
    doc, job_name, job, table, called = entered
    table = pick_combination(job, table, log)
    if table is None:
        return 1
    if "runs-on" in job:
        runs_on = evaluate_value(job["runs-on"], table)
        log(f"runs-on: {', '.join(runs_on) if isinstance(runs_on, list) else runs_on}")
    files = {k: os.path.join(temp, f"{k.lower()}") for k in ("GITHUB_ENV", "GITHUB_STEP_SUMMARY")}
    for f in files.values():
        open(f, "a").close()
    # The runner's tool cache outlives a job on a persistent runner: a scenario may name one.
    tool_cache = os.environ.get("RUNNER_TOOL_CACHE") or os.path.join(temp, "tool-cache")
    store = os.environ.get("FAKE_CACHE_STORE") or os.path.join(temp, "cache-store")
    # What the runner sets from the github context (a scenario's env may override it).
    github_env = {f"GITHUB_{k.upper()}": table[f"github.{k}"]
                  for k in ("ref", "ref_name", "repository", "event_name", "actor") if f"github.{k}" in table}
    job_env = {}
    for scope in (doc.get("env", {}), job.get("env", {})):
        job_env.update({k: evaluate(v, dict(table, **{f"env.{n}": x for n, x in job_env.items()}))
                        for k, v in scope.items()})
    failed = False
    post_steps = []
    # As on GitHub, a step's output that was never set (the step failed, or was skipped) reads as ''; an
    # output of a step id the job does not have is still a missing value, which fails the run.
    step_ids = {step["id"] for step in job.get("steps", []) if "id" in step}
    for step_id, key in re.findall(r"steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)", json.dumps(job)):
        if step_id in step_ids:
            table.setdefault(f"steps.{step_id}.outputs.{key}", "")
    for index, step in enumerate(job.get("steps", [])):
        name = step.get("name") or step.get("uses") or step.get("run", "").split("\n")[0]
        step_vars = dict(job_env)
        step_vars.update({k: evaluate(v, dict(table, **{f"env.{n}": x for n, x in job_env.items()}))
                          for k, v in step.get("env", {}).items()})
        step_table = dict(table, **{f"env.{k}": v for k, v in step_vars.items()})
        if not condition_holds(step.get("if", "success()"), step_table, failed):
            log(f"step {index} skipped: {name}")
            continue
        log(f"step {index}: {name}")
        env = dict(os.environ)
        env.update(github_env)
        env.update(context.get("env", {}))
        env.update(read_env_file(files["GITHUB_ENV"]))
        env.update(step_vars)
        output_file = os.path.join(temp, f"output-{index}")
        open(output_file, "w").close()
        env.update(GITHUB_ENV=files["GITHUB_ENV"], GITHUB_STEP_SUMMARY=files["GITHUB_STEP_SUMMARY"],
                   GITHUB_OUTPUT=output_file, RUNNER_TOOL_CACHE=tool_cache)
        if "uses" in step:
            with_ = {k: evaluate(v, step_table) for k, v in step.get("with", {}).items()}
            rc = simulate(step["uses"], with_, artifacts, store, post_steps, step_table, log)
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
    if called:  # the called workflow's outputs that this job's outputs give
        on = doc.get("on", doc.get(True))
        declared = (on.get("workflow_call") or {}).get("outputs") or {}
        known = dict(table, **{f"jobs.{job_name}.outputs.{k}": v for k, v in job_outputs.items()})
        workflow_outputs = {}
        for k, spec in declared.items():
            try:
                workflow_outputs[k] = evaluate(spec["value"], known)
            except KeyError:
                pass  # another job's output
        json.dump(workflow_outputs, open(workflow_outputs_file, "w"))
    log(f"job {job_name}: {'failed' if failed else 'passed'}")
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyError as e:
        print(f"[runner] {e.args[0]}", file=sys.stderr)
        sys.exit(2)
