"""The table view: a Telegram Mini App page showing a seat what it knows, and its HTTP contract.

Standard library and the engine only: no Telegram library, no AWS client (see docs/table-view.md).
"""
