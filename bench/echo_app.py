"""A Flask JSON echo: the yardstick of this machine's HTTP and Python speed that
``http_load.py`` measures beside the server (the issue's targets were set against it)."""

from flask import Flask, jsonify, request

app = Flask("echo")


@app.post("/echo")
def echo():  # type: ignore[no-untyped-def]
    return jsonify(request.get_json())
