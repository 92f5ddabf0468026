"""The template's secrets and custom resources: the bot token enters only as a no-echo parameter
and is written nowhere, the webhook secret is generated, the custom resources register the
webhook and learn the bot's username, and the functions' environment names only what they use."""

from __future__ import annotations

from handlers.entry import setup_telegram
from tests.deploy.cfn import target
from tests.deploy.conftest import DUMMY_TOKEN, Packaged, zip_texts

# The bot's public id, as the template takes it from the token parameter.
BOT_ID = {"Fn::Select": [0, {"Fn::Split": [":", {"Ref": "TelegramBotToken"}]}]}


def test_the_custom_resource_registers_the_api_url_with_the_secrets(packaged: Packaged) -> None:
    hook = packaged.resources["TelegramWebhook"]
    props = hook["Properties"]
    assert target(props["ServiceToken"]) == "WebhookSetupLambdaFunction"
    assert props["ServiceToken"]["Fn::GetAtt"][1] == "Arn"
    api, segment = (
        {"Fn::GetAtt": ["HttpApi", "ApiEndpoint"]},
        {"Fn::GetAtt": ["WebhookPath", "Segment"]},
    )
    assert props["WebhookUrl"] == {"Fn::Join": ["", [api, "/webhook/", segment]]}
    assert target(props["TokenSecretArn"]) == "BotTokenSecret"
    assert target(props["WebhookSecretArn"]) == "WebhookSecret"
    assert 1 <= int(props["MaxConnections"]) <= 100
    # Telegram is asked again when the bot, a setting or the offer changes, and only then.
    assert props["BotId"] == BOT_ID
    assert props["Offer"] == setup_telegram.offer_fingerprint()
    assert "DeployId" not in props
    assert int(props["ServiceTimeout"]) <= 300
    # Registered only once the route answers.
    assert {"HttpApiStage", "HttpApiRoutePostWebhook", "WebhookLambdaPermissionHttpApi"} <= set(
        hook["DependsOn"]
    )
    setup = packaged.resources["WebhookSetupLambdaFunction"]["Properties"]
    assert int(props["ServiceTimeout"]) > setup["Timeout"]


def test_the_functions_learn_the_bots_username_at_deploy_time(packaged: Packaged) -> None:
    bot = packaged.resources["TelegramBot"]
    props = bot["Properties"]
    assert target(props["ServiceToken"]) == "WebhookSetupLambdaFunction"
    assert target(props["TokenSecretArn"]) == "BotTokenSecret"
    assert props["BotId"] == BOT_ID and "DeployId" not in props
    # It needs nothing of the API, so the functions may wait for it without a cycle.
    assert "DependsOn" not in bot
    for name in ("WebhookLambdaFunction", "TimerLambdaFunction", "TableLambdaFunction"):
        variables = packaged.resources[name]["Properties"]["Environment"]["Variables"]
        assert variables["BOT_USERNAME"] == {"Fn::GetAtt": ["TelegramBot", "BotUsername"]}
    assert packaged.template["Outputs"]["BotUsername"]["Value"] == {
        "Fn::GetAtt": ["TelegramBot", "BotUsername"]
    }


def test_the_bot_token_enters_only_as_a_no_echo_parameter(packaged: Packaged) -> None:
    parameter = packaged.template["Parameters"]["TelegramBotToken"]
    assert parameter["NoEcho"] is True
    assert "Default" not in parameter
    secret = packaged.resources["BotTokenSecret"]["Properties"]
    assert secret["SecretString"] == {"Ref": "TelegramBotToken"}
    for name, resource in packaged.resources.items():
        if name != "BotTokenSecret":
            # Elsewhere only its public part, the bot's id before the colon.
            rest = str(resource).replace(str(BOT_ID), "")
            assert "TelegramBotToken" not in rest, name


def test_the_webhook_secret_is_generated_from_characters_telegram_allows(
    packaged: Packaged,
) -> None:
    props = packaged.resources["WebhookSecret"]["Properties"]
    assert "SecretString" not in props
    generate = props["GenerateSecretString"]
    assert generate["ExcludePunctuation"] is True
    assert generate["IncludeSpace"] is False
    assert 32 <= generate["PasswordLength"] <= 256


def test_no_bot_token_in_anything_packaging_wrote(packaged: Packaged) -> None:
    assert DUMMY_TOKEN not in packaged.log
    secret_part = DUMMY_TOKEN.split(":", 1)[1].encode()
    written = [p for p in packaged.output_dir.rglob("*") if p.is_file()]
    assert written, "serverless package wrote nothing"
    for path in written:
        assert secret_part not in path.read_bytes(), path
    for name, content in zip_texts(packaged.artifact):
        assert secret_part not in content, name


def test_the_functions_environment_names_only_what_they_use(packaged: Packaged) -> None:
    functions = packaged.of_type("AWS::Lambda::Function")
    deploy_ids = {
        f["Properties"]["Environment"]["Variables"]["DEPLOY_ID"]
        for f in functions.values()
        if "Environment" in f["Properties"]
    }
    assert len(deploy_ids) == 1 and str(deploy_ids.pop()).isdigit()
    env = {
        name: sorted(f["Properties"].get("Environment", {}).get("Variables", {}))
        for name, f in packaged.of_type("AWS::Lambda::Function").items()
    }
    assert env == {
        "WebhookLambdaFunction": [
            "BOT_USERNAME",
            "DECAPITATION_TABLE",
            "DEPLOY_ID",
            "TABLE_APP",
            "TABLE_URL",
            "TELEGRAM_TOKEN_SECRET_ARN",
            "TIMER_QUEUE_URL",
            "WEBHOOK_SECRET_ARN",
        ],
        "TimerLambdaFunction": [
            "BOT_USERNAME",
            "DECAPITATION_TABLE",
            "DEPLOY_ID",
            "TABLE_APP",
            "TABLE_URL",
            "TELEGRAM_TOKEN_SECRET_ARN",
            "TIMER_QUEUE_URL",
        ],
        "TableLambdaFunction": [
            "BOT_USERNAME",
            "DECAPITATION_TABLE",
            "DEPLOY_ID",
            "TABLE_APP",
            "TABLE_URL",
            "TELEGRAM_TOKEN_SECRET_ARN",
            "TIMER_QUEUE_URL",
        ],
        "WebhookSetupLambdaFunction": [],
    }
