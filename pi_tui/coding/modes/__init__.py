"""Non-interactive modes: print (``-p``), JSON event stream (``--mode json``) and RPC (``--mode rpc``)."""
