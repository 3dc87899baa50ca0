"""promlocal: Prometheus's programs on the loopback, for the tests of the
metrics, their alerting rules and the dashboard (t_metrics.py,
t_rules.py, t_dashboard.py).

    from promlocal import free_port, node_exporter_argv
    port = free_port()
    subprocess.Popen(node_exporter_argv(textdir, port), ...)

    from promlocal import Stack
    with Stack(tmp, textdir) as s:
        s.api("query", query="up")
"""
import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pace import limit


def free_port():
    """A TCP port of 127.0.0.1 that nothing listened on a moment ago."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def node_exporter_argv(textdir, port):
    """prometheus-node-exporter serving the textfile collector of textdir
    alone (no other collector reads the machine) on 127.0.0.1:port."""
    return ["prometheus-node-exporter", "--collector.disable-defaults",
            "--collector.textfile",
            "--collector.textfile.directory=" + textdir,
            "--web.listen-address=127.0.0.1:%d" % port]


def api(port, path, **params):
    """The JSON answer of Prometheus's HTTP API at 127.0.0.1:port, also
    when its status is 4xx or 5xx (a bad query: its "error" says why).
    An answer that is not JSON (a server still starting) raises the
    HTTPError, an OSError, as a refused connection does."""
    q = ("?" + urllib.parse.urlencode(params)) if params else ""
    url = "http://127.0.0.1:%d/api/v1/%s%s" % (port, path, q)
    try:
        with urllib.request.urlopen(url, timeout=limit(10)) as r:
            return json.loads(r.read().decode())
    except urllib.error.HTTPError as e:
        try:
            return json.loads(e.read().decode())
        except ValueError:
            raise e from None


class Stack:
    """prometheus-node-exporter serving the textfiles of textdir and a
    Prometheus on a temporary storage in tmp, both on the loopback:

        with Stack(tmp, textdir) as s:       # scrapes every second
            s.wait(lambda: s.api("query", query="up")["data"]["result"])

    conf_body, when given, is Prometheus's configuration after the
    global section (scrape_configs and more), naming NODE_EXPORTER where
    it scrapes; the default scrapes node_exporter alone."""

    def __init__(self, tmp, textdir, conf_body=None):
        self.tmp = tmp
        self.ne_port, self.port = free_port(), free_port()
        body = conf_body or ("scrape_configs:\n  - job_name: node\n"
                             "    static_configs:\n"
                             "      - targets: ['NODE_EXPORTER']\n")
        self.conf = os.path.join(tmp, "prometheus.yml")
        with open(self.conf, "w") as f:
            f.write("global:\n  scrape_interval: 1s\n"
                    "  evaluation_interval: 1s\n" +
                    body.replace("NODE_EXPORTER",
                                 "127.0.0.1:%d" % self.ne_port))
        self.textdir = textdir
        self.procs, self.logs = [], []

    def __enter__(self):
        self.logs = [open(os.path.join(self.tmp, n), "w+")
                     for n in ("ne.log", "pr.log")]
        self.procs.append(subprocess.Popen(
            node_exporter_argv(self.textdir, self.ne_port),
            stdout=subprocess.DEVNULL, stderr=self.logs[0]))
        self.procs.append(subprocess.Popen(
            ["prometheus", "--config.file=" + self.conf,
             "--storage.tsdb.path=" + os.path.join(self.tmp, "tsdb"),
             "--web.listen-address=127.0.0.1:%d" % self.port],
            stdout=subprocess.DEVNULL, stderr=self.logs[1]))
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=limit(10))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        for f in self.logs:
            f.close()

    def api(self, path, **params):
        return api(self.port, path, **params)

    def wait(self, pred, seconds):
        """pred() until it returns something true (an OSError counts as
        not yet), at most seconds; None when a process died or time ran
        out."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if any(p.poll() is not None for p in self.procs):
                return None
            try:
                v = pred()
                if v:
                    return v
            except OSError:
                pass
            time.sleep(0.2)
        return None

    def log_tail(self):
        """The end of both programs' logs, to say why they failed."""
        out = []
        for f in self.logs:
            f.seek(0)
            out.append(f.read()[-400:])
        return " | ".join(out)
