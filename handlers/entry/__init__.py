"""Entry points: the Lambda webhook and timer, the local poller, the deploy-time resource."""
