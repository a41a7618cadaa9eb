# SPDX-License-Identifier: Apache-2.0
"""bm lava: run the kit in a LAVA board farm and read LAVA's output back (docs/farm.md).
`job` writes a LAVA job for an image from its <name>.board.json, `device` prints the device
dictionary a lab needs, `run` runs the job here with lava-run, `results` lines LAVA's test cases
up against the kit's own records. Also the reader that recovers a board's console from a LAVA job
log, through which every bm command reads farm runs (log.read)."""
# (The docstring is `bm lava --help`'s description: the reader it names is records/joblog.py, the
# job and device dictionary lava/job.py and lava/qemu.py, the cases and their pairing with the
# records lava/cases.py.)
import argparse
import io
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from ..errors import UsageError
from ..lava.cases import PAIR_COLUMNS, SUITE, pair_by_name, pair_in_log, pair_rows, read_results
from ..lava.job import (SETUP_HINT, build_job, device_dict, device_type_template, dump_yaml, lava_version,
                        render_device, templates_dir, validate_job, verify_qemu)
from ..records import log as logmod
from ..records.board import load_board
from ..records.joblog import read_job_log
from .options import minutes
from .output import FORMATS, render

DEFAULT_MAC = "52:54:00:12:34:59"


def _memory(text):
    """--memory as QEMU's -m size takes it: a number > 0, MiB unless a suffix says otherwise
    (512, 1536M, 1.5G; no B or iB: QEMU refuses those)."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([kKMGTPE]?)", text)
    if not m or float(m.group(1)) <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: need a size > 0 as QEMU's -m takes it, e.g. 512 (MiB), "
                                         f"1536M or 1.5G")
    return text


def _mac(text):
    if not re.fullmatch(r"[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}", text):
        raise argparse.ArgumentTypeError(f"{text!r}: need a MAC address like {DEFAULT_MAC}")
    return text


def _name(text):
    if not text.strip() or any(c < " " for c in text):
        raise argparse.ArgumentTypeError(f"{text!r}: a job name needs a printable, non-blank text")
    return text


def _job_options(p):
    p.add_argument("--board-json", metavar="F", help="the image's <name>.board.json (beside <name>.elf)")
    p.add_argument("--image", metavar="URL|PATH",
                   help="where LAVA gets the image (http, https, file or scp URL, or a path); default: the board.json's")
    p.add_argument("--target", choices=("auto", "qemu", "hardware"), default="auto",
                   help="qemu device type or the board itself (flasher); auto: hardware when the image was built for it")
    p.add_argument("--name", type=_name, help="job name (default: baremark BOARD IMAGE)")
    p.add_argument("--timeout-min", type=minutes, default=10, metavar="M",
                   help="minutes the benchmarks may take (the test action; default 10)")
    p.add_argument("--device-type", help="device type of the job (default: qemu, or the board's name for hardware)")
    p.add_argument("--cpu", help="CPU model, where the QEMU line names none (default: asked of QEMU)")
    p.add_argument("--memory", type=_memory,
                   help="RAM as LAVA's -m takes it: 512 (MiB), 1536M, 2G (default: the machine's, asked of QEMU)")


def add_arguments(p):
    sub = p.add_subparsers(dest="lava_cmd", metavar="ACTION")
    j = sub.add_parser("job", help="write a LAVA job for an image (validated with lava_common)",
                       description="Write the LAVA job that runs an image: the qemu device type with the board's "
                                   "QEMU line, or (hardware) a flasher deploy, minimal boot and serial console. "
                                   "The test is a monitors action: one test case per benchmark.")
    _job_options(j)
    j.add_argument("-o", "--output", metavar="FILE", help="write the job here (default: standard output)")
    j.add_argument("--verify", action="store_true",
                   help="also render LAVA's device template and check the QEMU line it builds (needs the templates)")
    d = sub.add_parser("device", help="print the device dictionary a lab needs for the board")
    _job_options(d)
    d.add_argument("--mac", type=_mac, default=DEFAULT_MAC, help=f"QEMU devices: mac_addr (default {DEFAULT_MAC})")
    d.add_argument("--connection", metavar="CMD", help="hardware: the command that opens the serial console")
    d.add_argument("--reset", metavar="CMD", help="hardware: the command that resets the board")
    d.add_argument("--device-type-template", action="store_true",
                   help="hardware: print the device-type template (<device type>.jinja2) instead")
    d.add_argument("--render", action="store_true",
                   help="print the device configuration rendered with the job's context (needs the templates)")
    r = sub.add_parser("run", help="run the job here with lava-run and check what LAVA reports",
                       description="Generate the job, render the device with lava-server's templates (qemu.jinja2; "
                                   "for hardware the board's flash command, --connection and --reset), run "
                                   "lava-run (as root), and check that every benchmark's record came back as a "
                                   "LAVA test case with its measurement. Exit 0: job complete, records clean, "
                                   "every case agrees and passed; 1: the same, but a benchmark failed (0 with "
                                   "--allow-fail); 2: usage; 125: LAVA and the records disagree, or the job or "
                                   "records are broken.")
    _job_options(r)
    r.add_argument("--keep", metavar="DIR", help="keep job, device, LAVA's log (lava.log) and output here")
    r.add_argument("--connection", metavar="CMD", help="hardware: the command that opens the board's serial console")
    r.add_argument("--reset", metavar="CMD", help="hardware: the command that resets the board")
    r.add_argument("--mac", type=_mac, default=DEFAULT_MAC, help=argparse.SUPPRESS)
    r.add_argument("-o", "--output", metavar="FILE", help="write the kit's records of the run here")
    r.add_argument("--results", metavar="FILE", help="write the benchmark/test case table here (--format)")
    r.add_argument("--format", choices=FORMATS, default="table")
    r.add_argument("--allow-fail", action="store_true", help="failed benchmarks do not make the exit status 1")
    r.add_argument("--quiet", action="store_true", help="do not echo the board's console")
    s = sub.add_parser("results", help="LAVA's test cases against the kit's records (job log or results export)",
                       description="Read LAVA test cases from a job log (lava-run's log, output.yaml) or a results "
                                   "export (lavacli results JOB --yaml, the results CSV) and pair each with the kit's "
                                   "result record: from the log's own console, or from --records. Exit 0: every "
                                   "record has its case and they agree; 1: they do not; 2: usage.")
    s.add_argument("source", metavar="LOG|EXPORT")
    s.add_argument("--records", metavar="LOG", help="the kit's records to check an export against (any bm log)")
    s.add_argument("--suite", default=SUITE, help=f"LAVA test suite of the kit's cases (default {SUITE})")
    s.add_argument("--format", choices=FORMATS, default="table")
    p.set_defaults(_lava_parser=p)


def main(args):
    if not args.lava_cmd:
        args._lava_parser.print_help(sys.stderr)
        return 2
    return {"job": cmd_job, "device": cmd_device, "run": cmd_run, "results": cmd_results}[args.lava_cmd](args)


def say(msg):
    print(f"bm lava: {msg}", file=sys.stderr)


def write_out(path, text):
    if not path or path == "-":
        sys.stdout.write(text)
        return
    logmod.write(path, text.encode("utf-8"))


def cmd_job(args):
    board = load_board(args.board_json)
    job, target = build_job(board, args.board_json, args)
    if validate_job(job):
        say(f"the job validates against LAVA's job schema (lava_common {lava_version()}, strict)")
    else:
        say(f"lava_common is not installed: the job was NOT validated ({SETUP_HINT})")
    status = 0
    if args.verify:
        status = verify(board, job, target, args)
    write_out(args.output, dump_yaml(job))
    return status


def verify(board, job, target, args):
    tdir = templates_dir()
    ddict = device_dict(board, target, args_with_defaults(args), args.board_json)
    extra = {}
    if target == "hardware":
        name = job["device_type"]
        extra[f"{name}.jinja2"] = device_type_template(name)
    _, device = render_device(ddict, job.get("context"), tdir, extra)
    if target == "hardware":
        cmds = device["actions"]["deploy"]["methods"]["flasher"]["commands"]
        if not cmds or "{IMAGE}" not in cmds[0]:
            say("the rendered device has no flasher command with {IMAGE}")
            return 1
        say(f"rendered with {tdir}: flasher runs {cmds[0]}")
        return 0
    problems, notes = verify_qemu(board, job, device, args.board_json)
    for n in notes:
        say("note: " + n)
    for p in problems:
        say("problem: " + p)
    if problems:
        return 1
    if not notes:
        say(f"rendered with {tdir}: LAVA runs the board's QEMU line (plus its network and monitor options)")
    return 0


def args_with_defaults(args):
    for k, v in (("mac", DEFAULT_MAC), ("connection", None), ("reset", None)):
        if not hasattr(args, k):
            setattr(args, k, v)
    return args


def cmd_device(args):
    board = load_board(args.board_json)
    job, target = build_job(board, args.board_json, args)
    if args.device_type_template:
        if target != "hardware":
            raise UsageError("--device-type-template is for hardware boards (a QEMU board uses LAVA's qemu.jinja2)")
        write_out("-", device_type_template(job["device_type"]))
        return 0
    text = device_dict(board, target, args, args.board_json)
    tdir = templates_dir(required=False)
    if target == "qemu" and tdir:
        _, dev = render_device(text, job["context"], tdir)
        _, notes = verify_qemu(board, job, dev, args.board_json)
        for n in notes:
            say("note: " + n)
    if target == "hardware" and (not args.connection or not args.reset):
        say("fill in the CHANGE-ME lines (or give --connection and --reset)")
    if args.render:
        extra = {f"{job['device_type']}.jinja2": device_type_template(job["device_type"])} if target == "hardware" else {}
        out, _ = render_device(text, job.get("context"), templates_dir(), extra)
        write_out("-", out)
        return 0
    write_out("-", text)
    return 0


def _is_root():
    return os.geteuid() == 0


def cmd_run(args):
    board = load_board(args.board_json)
    job, target = build_job(board, args.board_json, args)
    if target == "hardware" and not (args.connection and args.reset):
        raise UsageError(f"board {board['board']}: a hardware job runs here only with --connection CMD (its "
                         f"serial console) and --reset CMD; else it needs a lab (bm lava job, then lavacli "
                         f"jobs submit: docs/farm.md)")
    if not validate_job(job):
        raise UsageError(f"lava_common is not installed: {SETUP_HINT}")
    lava_run = shutil.which("lava-run")
    if lava_run is None:
        raise UsageError(f"lava-run is not installed: {SETUP_HINT}")
    if not _is_root():
        raise UsageError("lava-run runs only as root (it is LAVA's dispatcher): run bm lava run as root")
    tdir = templates_dir()
    ddict = device_dict(board, target, args_with_defaults(args), args.board_json)
    extra = {f"{job['device_type']}.jinja2": device_type_template(job["device_type"])} if target == "hardware" else {}
    device_yaml, device = render_device(ddict, job.get("context"), tdir, extra)
    if target == "qemu":
        problems, notes = verify_qemu(board, job, device, args.board_json)
        if notes or problems:
            raise UsageError("; ".join(notes + problems))
    work = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(prefix="bm-lava-")
    try:
        os.makedirs(work, exist_ok=True)
        files = {"job.yaml": dump_yaml(job), "device.jinja2": ddict, "device.yaml": device_yaml,
                 "dispatcher.yaml": "# lava-run without a server: no default route needed\ndispatcher_ip: 127.0.0.1\n"}
        for name, text in files.items():
            with open(os.path.join(work, name), "w", encoding="utf-8") as f:
                f.write(text)
        log_path = os.path.join(work, "lava.log")
        cmd = [lava_run, "--job-id", str(os.getpid()), "--output-dir", os.path.join(work, "out"),
               "--device", os.path.join(work, "device.yaml"), "--dispatcher", os.path.join(work, "dispatcher.yaml"),
               os.path.join(work, "job.yaml")]
        limit = (job["timeouts"]["job"]["minutes"] + 1) * 60
        t0 = time.monotonic()
        rc, timed_out = _lava_run(cmd, log_path, limit, args.quiet)
        took = time.monotonic() - t0
        with open(log_path, "rb") as f:
            data = f.read()
        return report_run(data, log_path, rc, timed_out, took, args, work if args.keep else None)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def _lava_run(cmd, log_path, limit, quiet):
    """Run lava-run, its log stream (standard error) into log_path; echo the board's console."""
    with open(log_path, "wb") as logf:
        # Its log stream is standard error; standard output (normally silent) joins it.
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + limit
        timed_out = False
        sel = selectors.DefaultSelector()
        sel.register(p.stdout, selectors.EVENT_READ)
        buf = b""
        while True:
            if time.monotonic() > deadline:
                timed_out = True
                os.killpg(p.pid, signal.SIGTERM)
                break
            if not sel.select(timeout=0.5):
                if p.poll() is not None:
                    break
                continue
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                break
            logf.write(chunk)
            buf += chunk
            *whole, buf = buf.split(b"\n")
            if not quiet:
                for line in whole:
                    jl = read_job_log(line + b"\n")
                    text = jl.console.rstrip(b"\n")
                    if text:
                        sys.stderr.buffer.write(text + b"\n")
                sys.stderr.flush()
        try:
            rc = p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            rc = p.wait()
    return rc, timed_out


def _note_unreadable(jl, path):
    if jl.unreadable:
        say(f"{path}: {len(jl.unreadable)} lines are not LAVA log lines (first: line {jl.unreadable[0]}); "
            f"skipped (a log cut short, or edited)")


def report_run(data, log_path, rc, timed_out, took, args, kept):
    jl = read_job_log(data)
    _note_unreadable(jl, log_path)
    lg = logmod.analyze(jl.console, log_path)
    pairs = pair_in_log(lg, jl.cases)
    broken = []
    if timed_out:
        broken.append("lava-run did not finish in time; stopped")
    if jl.job_result != "pass":
        why = f": {jl.errors[-1]}" if jl.errors else ""
        broken.append(f"the LAVA job did not finish ({jl.job_result or 'no job result'}, lava-run status {rc}){why}")
    for p in lg.problems:
        broken.append(f"records: {p.msg}")
    bad = [p for p in pairs if p.problems]
    if not any(p.case for p in pairs):
        broken.append(f"LAVA reported no test case of suite {SUITE}"
                      + (f" ({len(bad)} result records in the console)" if bad else ""))
    else:
        for p in bad[:8]:
            broken.append(f"{p.name}: {'; '.join(p.problems)}")
        if len(bad) > 8:
            broken.append(f"... and {len(bad) - 8} more benchmarks where LAVA and the records disagree")
    rows = pair_rows(pairs)
    if args.results:
        buf = io.StringIO()
        render(rows, PAIR_COLUMNS, args.format, buf)
        write_out(args.results, buf.getvalue())
    else:
        render(rows, PAIR_COLUMNS, args.format, sys.stdout)
    if args.output:
        bt = lg.last_complete()
        if bt is None:
            broken.append(f"no complete boot to write to {args.output}")
        else:
            logmod.write_boot(args.output, bt)
    cases = [p for p in pairs if p.case is not None]
    failed = [p for p in cases if p.case.result != "pass"]
    say(f"LAVA job {jl.job_result or 'unfinished'} in {took:.1f} s: {len(cases)} test cases, "
        f"{len([p for p in pairs if p.record is not None])} result records, {len(failed)} failed"
        + (f"; files in {kept}" if kept else ""))
    for b in broken:
        say(b)
    if broken:
        return 125
    if failed and not args.allow_fail:
        return 1
    return 0


def cmd_results(args):
    data = logmod.read_raw(args.source)
    cases, jl = read_results(data, args.source)
    if args.records:
        rlog = logmod.analyze(logmod.read(args.records), args.records)
        bt = rlog.last_complete()
        if bt is None:
            raise UsageError(f"{args.records}: no complete boot of records")
        if rlog.problems:
            say(f"{args.records}: {rlog.problems[0].msg} (bm check names every problem)")
        pairs = pair_by_name(bt, cases, args.suite)
    elif jl is not None:
        _note_unreadable(jl, args.source)
        lg = logmod.analyze(jl.console, args.source)
        for p in lg.problems:
            say(f"records: {p.msg}")
        pairs = pair_in_log(lg, cases, args.suite)
    else:
        rows = [{"benchmark": c.id, "lava_result": c.result, "measurement": c.measurement or "-",
                 "units": c.units or "-", "_raw": {"benchmark": c.id, "lava_result": c.result,
                                                  "measurement": c.measurement, "units": c.units}}
                for c in cases if c.suite == args.suite]
        if not rows:
            raise UsageError(f"{args.source}: no test case of suite {args.suite}")
        render(rows, [("benchmark", "benchmark"), ("lava_result", "LAVA result"), ("measurement", "measurement"),
                      ("units", "units")], args.format, sys.stdout)
        say("no records to check them against (give --records LOG)")
        return 0
    if not pairs:
        raise UsageError(f"{args.source}: no test case of suite {args.suite} and no result record")
    render(pair_rows(pairs), PAIR_COLUMNS, args.format, sys.stdout)
    bad = [p for p in pairs if p.problems]
    say(f"{len(pairs) - len(bad)} of {len(pairs)} benchmarks agree with LAVA's test cases")
    return 1 if bad else 0
