"""One run of QEMU (or of a host test program): output kept, input typed."""
import os
import re
import subprocess
import threading
import time


# A line's start, then a kernel log line ("[   1.234567] ...\n") cut into it.
_KLOG_MIDLINE = re.compile(r"(?m)^([^\n\[]+)(\[ *\d+\.\d+\] [^\n]*\n)")


class Boot:
    """Run cmd, capture everything it prints to log, within timeout seconds.

    script: (regex, text) pairs: wait until the output matches regex (past
    the previous match), then type text (or text(match), when it is a
    function). stop_after_script: end the run once
    the script's last pattern is seen (a machine that halts rather than
    exits). After run(): text, status (exit code), timed_out, seconds.
    """

    def __init__(self, cmd, log, timeout, script=(), stop_after_script=False):
        self.cmd, self.log, self.timeout, self.script = cmd, log, timeout, script
        self.stop_after_script = stop_after_script
        self.text, self.status, self.timed_out, self.seconds = "", None, False, 0.0

    def run(self):
        os.makedirs(os.path.dirname(self.log), exist_ok=True)
        start = time.time()
        p = subprocess.Popen(self.cmd, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        chunks, lock = [], threading.Lock()

        def reader():
            while True:
                b = p.stdout.read1(4096)
                if not b:
                    break
                with lock:
                    chunks.append(b.decode("utf-8", "replace"))

        t = threading.Thread(target=reader, daemon=True)
        t.start()

        def seen():
            with lock:
                return "".join(chunks)

        pos, script_done = 0, False
        for wait_for, send in self.script:
            while time.time() - start < self.timeout and p.poll() is None:
                m = re.compile(wait_for).search(seen(), pos)
                if m:
                    pos = m.end()
                    break
                time.sleep(0.05)
            if p.poll() is not None or time.time() - start >= self.timeout:
                break
            if callable(send):
                send = send(m)  # text that depends on what was seen (a pid)
            try:
                # Type it like a person would: serial input has no buffer.
                for ch in send:
                    p.stdin.write(ch.encode())
                    p.stdin.flush()
                    time.sleep(0.002)
            except BrokenPipeError:
                break
        else:
            script_done = True
        if self.stop_after_script and script_done and p.poll() is None:
            p.kill()
        try:
            p.wait(timeout=max(1, self.timeout - (time.time() - start)))
        except subprocess.TimeoutExpired:
            self.timed_out = True
            p.kill()
            p.wait()
        t.join(timeout=5)
        self.text = seen()
        self.status = p.returncode
        self.seconds = time.time() - start
        with open(self.log, "w") as f:
            f.write(self.text)
        return self

    def clean_text(self):
        """The output without the serial line's carriage returns, and with
        a kernel log line that came out in the middle of another line (the
        shell echoing a typed command while a program's exit is logged)
        put before that line, which is joined up again."""
        text = self.text.replace("\r", "")
        return _KLOG_MIDLINE.sub(r"\2\1", text)
