"""Drives `inspector mcp` with the official MCP Python SDK (the `mcp` package), then with
hostile raw messages on its standard input. Run by .ci/check-mcp; prints PASS/FAIL per check.

    python3 .ci/check-mcp.py PATH/TO/inspector   (from the repository's root)
"""

import asyncio
import json
import os
import select
import subprocess
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

INSPECTOR = os.path.abspath(sys.argv[1])
ROOT = os.getcwd()
TRACE = "traces/invalid/double-refresh.jsonl"
failures = []


def check(name, condition, detail=""):
    print(("PASS " if condition else "FAIL ") + name + ("" if condition else f": {detail}"))
    if not condition:
        failures.append(name)


def cli(*arguments):
    """What the inspector's own command line says, to check the server's answers against."""
    return subprocess.run([INSPECTOR, *arguments], capture_output=True, text=True, timeout=60).stdout


async def with_sdk():
    parameters = StdioServerParameters(command=INSPECTOR, args=["mcp"], cwd=ROOT)
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write) as session:
            initialized = await asyncio.wait_for(session.initialize(), 30)
            check("initialize names the server", initialized.server_info.name == "rewind-inspector",
                  initialized.server_info)
            check("initialize agrees on revision 2025-06-18", initialized.protocol_version == "2025-06-18",
                  initialized.protocol_version)

            listed = await asyncio.wait_for(session.list_tools(), 30)
            names = {tool.name for tool in listed.tools}
            wanted = {"open_trace", "summary", "problems", "events", "state", "diff", "when", "why",
                      "compare", "coverage"}
            check("tools/list lists every tool", wanted <= names, sorted(names))
            check("every tool has an object input schema",
                  all(tool.input_schema.get("type") == "object" for tool in listed.tools))

            async def call(name, **arguments):
                result = await asyncio.wait_for(session.call_tool(name, arguments), 60)
                return result, result.structured_content

            # The question: which step first went wrong, and which line of Swift sent it.
            result, opened = await call("open_trace", path=TRACE)
            check("open_trace opens the trace", not result.is_error and opened["events"] > 0, opened)
            result, summary = await call("summary", trace=TRACE)
            first = summary["problems"]["firstError"]
            step = first["seq"]
            result, why = await call("why", trace=TRACE, seq=step)
            source = why["chain"][0]["source"]
            expected = json.loads(cli("validate", TRACE, "--format", "json"))["problems"][0]
            check("the first wrong step is the one validate names", step == expected["seq"],
                  f"{step} vs {expected}")
            check("the first error is the illegal double refresh", first["kind"] == "illegal", first)
            expected_why = json.loads(cli("why", TRACE, str(step), "--format", "json"))
            check("why names the line of Swift that sent it",
                  source == expected_why["chain"][0]["source"] == "SampleApp/Shop.swift:97", source)
            print(f"answer: step {step} first went wrong ({first['kind']}: {first['message']}); "
                  f"it was sent from {source}")

            # The same answer from the events list, filtered to problems.
            result, events = await call("events", trace=TRACE, problemsOnly=True, limit=1)
            check("events with problemsOnly starts at that step",
                  events["events"][0]["step"] == step and events["events"][0]["source"] == source, events)
            result, diff = await call("diff", trace=TRACE, step=step)
            check("diff of the step names its event", diff["event"]["seq"] == step, diff)
            result, state = await call("state", trace=TRACE, step=step, path="CatalogStore")
            check("state at a path answers", not result.is_error and "value" in state, state)

            # Tool errors a person can act on, and files outside the folder never read.
            result, _ = await call("open_trace", path="/etc/passwd")
            text = result.content[0].text if result.content else ""
            check("a file outside the folder is refused", result.is_error and "--allow" in text, text)
            result, _ = await call("open_trace", path="../../../../etc/passwd")
            check("../ does not lead out", result.is_error, result)
            result, _ = await call("state", trace=TRACE, step=10**6)
            text = result.content[0].text if result.content else ""
            check("a step past the end is a tool error naming the last step",
                  result.is_error and "last step" in text, text)
            try:
                await call("state", trace=TRACE, step="six")
                check("a wrong argument type is a JSON-RPC error", False, "no error")
            except Exception as error:  # the SDK raises its MCPError
                code = getattr(getattr(error, "error", None), "code", None) or getattr(error, "code", None)
                check("a wrong argument type is a JSON-RPC error (-32602)", code == -32602, repr(error))
            result, summary_again = await call("summary", trace=TRACE)
            check("the server still answers after errors", summary_again["problems"]["errors"] >= 1)


class Raw:
    """The server over raw pipes, for messages no SDK would send."""

    def __init__(self):
        self.process = subprocess.Popen([INSPECTOR, "mcp"], cwd=ROOT, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buffer = b""

    def send(self, data):
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def answer(self, timeout=30):
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([self.process.stdout], [], [], timeout)
            if not ready:
                raise TimeoutError("no answer within %ss" % timeout)
            chunk = os.read(self.process.stdout.fileno(), 1 << 16)
            if not chunk:
                raise EOFError("the server closed its output")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)


def hostile():
    raw = Raw()
    cases = [
        ("not JSON", b"this is not json\n", -32700),
        ("truncated JSON", b'{"jsonrpc":"2.0","id":1,"method":\n', -32700),
        ("invalid UTF-8", b'{"jsonrpc":"2.0","id":1,"method":"\xff\xfe"}\n', -32700),
        ("a huge message (5 MB)", b'{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"' + b"a" * (5 << 20)
         + b'"}}\n', -32700),
        ("a batch", b'[{"jsonrpc":"2.0","id":3,"method":"ping"}]\n', -32600),
        ("a number", b"42\n", -32600),
        ("an id that is an object", b'{"jsonrpc":"2.0","id":{},"method":"ping"}\n', -32600),
        ("no jsonrpc member", b'{"id":4,"method":"ping"}\n', -32600),
        ("an unknown method", b'{"jsonrpc":"2.0","id":5,"method":"resources/list"}\n', -32601),
        ("params that are an array", b'{"jsonrpc":"2.0","id":6,"method":"tools/call","params":[1]}\n', -32602),
        ("an unknown tool", b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"rm"}}\n', -32602),
        ("arguments of the wrong type",
         b'{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"summary","arguments":{"trace":7}}}\n',
         -32602),
        ("an unknown argument",
         b'{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"summary","arguments":{"file":"x"}}}\n',
         -32602),
    ]
    for name, data, code in cases:
        raw.send(data)
        try:
            answer = raw.answer()
            got = answer.get("error", {}).get("code")
            message = answer.get("error", {}).get("message", "")
            check(f"hostile: {name} gets error {code}", got == code and len(message) > 20, answer)
        except Exception as error:
            check(f"hostile: {name} gets error {code}", False, repr(error))
    raw.send(b'{"jsonrpc":"2.0","method":"notifications/whatever"}\n')
    raw.send(b'{"jsonrpc":"2.0","id":"last","method":"ping"}\n')
    try:
        answer = raw.answer()
        check("hostile: after all that, ping is answered (and a notification is not)",
              answer.get("id") == "last" and answer.get("result") == {}, answer)
    except Exception as error:
        check("hostile: after all that, ping is answered", False, repr(error))
    raw.process.stdin.close()
    try:
        status = raw.process.wait(timeout=30)
        check("end of input ends the server with status 0", status == 0, status)
    except subprocess.TimeoutExpired:
        raw.process.kill()
        check("end of input ends the server", False, "still running 30 s after its input ended")


asyncio.run(with_sdk())
hostile()
print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
