"""promlocal: Prometheus's programs on the loopback, for the tests of the
metrics and their alerting rules (t_metrics.py, t_rules.py).

    from promlocal import free_port, node_exporter_argv
    port = free_port()
    subprocess.Popen(node_exporter_argv(textdir, port), ...)
"""
import socket


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
