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

from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types.version import LATEST_HANDSHAKE_VERSION, LATEST_PROTOCOL_VERSION

INSPECTOR = os.path.abspath(sys.argv[1])
ROOT = os.getcwd()
TRACE = "traces/invalid/double-refresh.jsonl"
# The repository path of the Swift file that sent the double refresh, as `validate` resolves it.
SOURCE_FILE = "Sources/SampleApp/Shop/Shop.swift"
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
            check(f"initialize agrees on the SDK's latest handshake revision {LATEST_HANDSHAKE_VERSION}",
                  initialized.protocol_version == LATEST_HANDSHAKE_VERSION, initialized.protocol_version)

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
            where = f"{why['chain'][0].get('sourceFile')}:{why['chain'][0].get('sourceLine')}"
            validated = json.loads(cli("validate", TRACE, "--format", "json"))
            expected = validated["problems"][0]
            check("the first wrong step is the one validate names", step == expected["seq"],
                  f"{step} vs {expected}")
            check("the first error is the illegal double refresh", first["kind"] == "illegal", first)
            expected_why = json.loads(cli("why", TRACE, str(step), "--format", "json"))
            check("why names the line of Swift that sent it",
                  source == expected_why["chain"][0]["source"] == "SampleApp/Shop.swift:97", source)
            check("why gives that line's file in the repository, as validate resolves it",
                  where == f"{expected['sourceFile']}:{expected['sourceLine']}" == f"{SOURCE_FILE}:97", where)
            print(f"answer: step {step} first went wrong ({first['kind']}: {first['message']}); "
                  f"it was sent from {where} ({source})")
            result, problems = await call("problems", trace=TRACE, limit=1000)
            check("problems are exactly validate --format json's", problems["problems"] == validated["problems"],
                  f"{problems['problems'][:1]} vs {validated['problems'][:1]}")

            # The same answer from the events list, filtered to problems.
            result, events = await call("events", trace=TRACE, problemsOnly=True, limit=1)
            check("events with problemsOnly starts at that step",
                  events["events"][0]["step"] == step and events["events"][0]["source"] == source
                  and events["events"][0]["sourceFile"] == SOURCE_FILE, events)
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
            result, _ = await call("events", trace=TRACE, action="nosuch")
            text = result.content[0].text if result.content else ""
            check("an action the trace lacks is a tool error listing its actions",
                  result.is_error and "nosuch" in text and "toLoading" in text, text)
            try:
                await call("events", trace=TRACE, limit=1e15)
                check("a limit of 1e15 is a JSON-RPC error", False, "no error")
            except Exception as error:
                message = str(getattr(getattr(error, "error", None), "message", None) or error)
                check("a limit of 1e15 is too large, and the error gives the maximum",
                      "too large" in message and "500" in message, message)
            result, summary_again = await call("summary", trace=TRACE)
            check("the server still answers after errors", summary_again["problems"]["errors"] >= 1)


async def with_sdk_latest():
    """The SDK's own way in: `server/discover` at its latest revision, which has no initialize."""
    parameters = StdioServerParameters(command=INSPECTOR, args=["mcp"], cwd=ROOT)
    async with Client(parameters, mode="auto", read_timeout_seconds=60) as client:
        check(f"the SDK's client agrees on its latest revision {LATEST_PROTOCOL_VERSION}",
              client.protocol_version == LATEST_PROTOCOL_VERSION, client.protocol_version)
        listed = await asyncio.wait_for(client.list_tools(), 30)
        check(f"tools/list at {LATEST_PROTOCOL_VERSION} lists the tools",
              "why" in {tool.name for tool in listed.tools}, listed)
        result = await asyncio.wait_for(client.call_tool("why", {"trace": TRACE, "seq": 6}), 60)
        chain = (result.structured_content or {}).get("chain", [{}])
        check(f"why at {LATEST_PROTOCOL_VERSION} names the file in the repository",
              not result.is_error and chain[0].get("sourceFile") == SOURCE_FILE, result)


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
        return json.loads(self.line(timeout))

    def line(self, timeout=30):
        """The next line the server wrote, as bytes."""
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([self.process.stdout], [], [], timeout)
            if not ready:
                raise TimeoutError("no answer within %ss" % timeout)
            chunk = os.read(self.process.stdout.fileno(), 1 << 16)
            if not chunk:
                raise EOFError("the server closed its output")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line


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
    # Hostile sizes: what an error repeats of a 3 MB input is an excerpt of it, and its size.
    huge = "\u001b]0;pwned\u0007" + "é" * (3 << 19)
    huge_bytes = len(huge.encode())
    quoted = json.dumps(huge, ensure_ascii=False).encode()
    trace = json.dumps(TRACE).encode()
    bounded_cases = [
        ("a 3 MB method", b'{"jsonrpc":"2.0","id":20,"method":' + quoted + b'}\n', -32601),
        ("a 3 MB tool name",
         b'{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":' + quoted + b'}}\n', -32602),
        ("a 3 MB argument name", b'{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"summary",'
         b'"arguments":{' + quoted + b':1}}}\n', -32602),
        ("a 3 MB state path", b'{"jsonrpc":"2.0","id":23,"method":"tools/call","params":{"name":"state",'
         b'"arguments":{"trace":' + trace + b',"step":1,"path":' + quoted + b'}}}\n', -32602),
        ("a 3 MB path to open", b'{"jsonrpc":"2.0","id":24,"method":"tools/call","params":{"name":"open_trace",'
         b'"arguments":{"path":' + quoted + b'}}}\n', None),
        ("a 3 MB trace name", b'{"jsonrpc":"2.0","id":25,"method":"tools/call","params":{"name":"summary",'
         b'"arguments":{"trace":' + quoted + b'}}}\n', None),
    ]
    for name, data, code in bounded_cases:
        raw.send(data)
        try:
            line = raw.line()
            line_answer = json.loads(line)
            size = len(line)
            if code is None:
                text = line_answer.get("result", {}).get("content", [{}])[0].get("text", "")
                ok = line_answer.get("result", {}).get("isError") is True
            else:
                text = line_answer.get("error", {}).get("message", "")
                ok = line_answer.get("error", {}).get("code") == code
            check(f"hostile: {name} gets a short error naming its size",
                  ok and size < 2048 and f"({huge_bytes} bytes)" in text and b"\x1b" not in line,
                  f"{size} bytes: {text[:300]!r}")
        except Exception as error:
            check(f"hostile: {name} gets a short error naming its size", False, repr(error))
    raw.send(b'{"jsonrpc":"2.0","id":26,"method":"tools/list","params":{"_meta":'
             b'{"io.modelcontextprotocol/protocolVersion":"2030-01-01"}}}\n')
    try:
        answer = raw.answer()
        check("hostile: a revision the server lacks gets -32022 with the supported ones",
              answer.get("error", {}).get("code") == -32022
              and LATEST_PROTOCOL_VERSION in answer["error"].get("data", {}).get("supported", []), answer)
    except Exception as error:
        check("hostile: a revision the server lacks gets -32022", False, repr(error))

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
asyncio.run(with_sdk_latest())
hostile()
print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
