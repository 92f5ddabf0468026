'use strict';

// The project's osls plugin (listed in serverless.yml), for three things osls does not do alone:
//
// 1. Build the Lambda zip (`infra/package.py`: aarch64 wheels, no Docker) before osls packages.
// 2. Hand the bot token to CloudFormation as the NoEcho stack parameter TelegramBotToken, only
//    on the call that creates or updates the full stack. `provider.stackParameters` written in
//    serverless.yml would be saved into .serverless/serverless-state.json (which osls also
//    uploads to the deployment bucket), and would be sent with the first, bucket-only stack
//    too, which CloudFormation refuses because that template declares no such parameter.
//    Set here, the token lives in this process's memory and in the CloudFormation call only.
//
// The token comes from the environment: `TELEGRAM_BOT_TOKEN=<token> npx serverless deploy`.
// Without it, a stage deployed before keeps the token it has (UsePreviousValue). The optional
// AlarmEmail parameter (who is e-mailed when an alarm fires) comes the same way, from ALARM_EMAIL,
// and is kept when not given again; so does TableApp (the table view's Mini App short name, made
// by hand with @BotFather /newapp), from TABLE_APP; the webhook's reserved concurrency, from
// WEBHOOK_RESERVED_CONCURRENCY.
//
// 3. Say after every deploy whether an alarm reaches anyone: without a confirmed subscriber to
//    the alarm topic (AlarmTopicArn), a warning says so and how to add one.

const { spawnSync } = require('node:child_process');
const path = require('node:path');

const PARAMETER = 'TelegramBotToken';
const EMAIL_PARAMETER = 'AlarmEmail';
const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const TABLE_APP_PARAMETER = 'TableApp';
// Executions kept for the webhook (WEBHOOK_RESERVED_CONCURRENCY): 0 keeps none; a reservation is
// also the function's ceiling, so one below Telegram's 8 connections (MaxConnections) is refused.
const RESERVATION_PARAMETER = 'WebhookReservedConcurrency';
const TELEGRAMS_CONNECTIONS = 8;
// Same shape as the template parameter's AllowedPattern: BotFather's short names.
const TABLE_APP_PATTERN = /^[A-Za-z0-9_]{3,30}$/;
const HOW_TO_SUBSCRIBE =
  'Add one: ALARM_EMAIL=you@example.org npx serverless deploy (AWS e-mails the address a link ' +
  'to confirm), or subscribe any other endpoint to the topic.';
// Same shape as the template parameter's AllowedPattern in serverless.yml.
const TOKEN_PATTERN = /^[0-9]{5,16}:[A-Za-z0-9_-]{30,64}$/;

function cloudFormationCommands() {
  const oslsDir = path.dirname(require.resolve('osls/package.json'));
  const sdk = require.resolve('@aws-sdk/client-cloudformation', { paths: [oslsDir] });
  return require(sdk);
}

class DecapitationDeploy {
  constructor(serverless, options, utils = {}) {
    this.serverless = serverless;
    this.options = options;
    this.log = utils.log;
    this.provider = serverless.getProvider('aws');
    this.parameter = null;
    this.extra = [];
    this.hooks = {
      'before:package:createDeploymentArtifacts': () => this.build(),
      'before:package:function:package': () => this.build(),
      'before:deploy:deploy': async () => this.chooseTokenParameter(),
      'before:aws:deploy:deploy:updateStack': () => this.passTokenParameter(),
      'after:deploy:deploy': async () => this.reportAlarmSubscribers(),
    };
  }

  error(message, code) {
    return new this.serverless.classes.Error(message, code);
  }

  build() {
    const python = process.env.PYTHON || 'python3';
    const serviceDir = this.serverless.serviceDir;
    const result = spawnSync(python, [path.join(serviceDir, 'infra', 'package.py')], {
      cwd: serviceDir,
      stdio: 'inherit',
    });
    if (result.error) {
      throw this.error(
        `Could not run "${python}" to build the Lambda zip (${result.error.message}). ` +
          'Install Python 3.11+ with pip, or set PYTHON to its path.',
        'DECAPITATION_BUILD'
      );
    }
    if (result.status !== 0) {
      throw this.error(
        `infra/package.py failed (exit status ${result.status}); see its output above.`,
        'DECAPITATION_BUILD'
      );
    }
  }

  async chooseTokenParameter() {
    const deployed = await this.stackParameters();
    this.extra = [
      ...this.chooseEmailParameter(deployed),
      ...this.chooseTableAppParameter(deployed),
      ...this.chooseReservationParameter(deployed),
    ];
    const token = (process.env.TELEGRAM_BOT_TOKEN || '').trim();
    if (token) {
      if (!TOKEN_PATTERN.test(token)) {
        throw this.error(
          'TELEGRAM_BOT_TOKEN does not look like a bot token from @BotFather ' +
            '(digits, a colon, then about 35 letters, digits, "_" or "-").',
          'DECAPITATION_TOKEN'
        );
      }
      this.parameter = { ParameterKey: PARAMETER, ParameterValue: token };
      return;
    }
    if (deployed.includes(PARAMETER)) {
      if (this.log) this.log.notice('TELEGRAM_BOT_TOKEN not set: keeping the deployed token');
      this.parameter = { ParameterKey: PARAMETER, UsePreviousValue: true };
      return;
    }
    throw this.error(
      'TELEGRAM_BOT_TOKEN is not set. The first deploy of a stage needs the token ' +
        'that @BotFather gave you: TELEGRAM_BOT_TOKEN=<token> npx serverless deploy',
      'DECAPITATION_TOKEN'
    );
  }

  chooseEmailParameter(deployed) {
    const email = (process.env.ALARM_EMAIL || '').trim();
    if (email) {
      if (!EMAIL_PATTERN.test(email)) {
        throw this.error(`ALARM_EMAIL is not an e-mail address: ${email}`, 'DECAPITATION_EMAIL');
      }
      return [{ ParameterKey: EMAIL_PARAMETER, ParameterValue: email }];
    }
    if (deployed.includes(EMAIL_PARAMETER)) {
      return [{ ParameterKey: EMAIL_PARAMETER, UsePreviousValue: true }];
    }
    return []; // the template's default: no e-mail
  }

  chooseTableAppParameter(deployed) {
    const name = (process.env.TABLE_APP || '').trim();
    if (name) {
      if (!TABLE_APP_PATTERN.test(name)) {
        throw this.error(
          `TABLE_APP is not a Mini App short name (3-30 letters, digits or "_"): ${name}`,
          'DECAPITATION_TABLE_APP'
        );
      }
      return [{ ParameterKey: TABLE_APP_PARAMETER, ParameterValue: name }];
    }
    if (deployed.includes(TABLE_APP_PARAMETER)) {
      return [{ ParameterKey: TABLE_APP_PARAMETER, UsePreviousValue: true }];
    }
    return []; // the template's default: no Mini App, no Table link in groups
  }

  chooseReservationParameter(deployed) {
    const figure = (process.env.WEBHOOK_RESERVED_CONCURRENCY || '').trim();
    if (figure) {
      const n = /^[0-9]+$/.test(figure) ? Number(figure) : -1;
      if (n !== 0 && !(n >= TELEGRAMS_CONNECTIONS)) {
        throw this.error(
          `WEBHOOK_RESERVED_CONCURRENCY must be 0 (none) or at least ${TELEGRAMS_CONNECTIONS}, ` +
            `Telegram's connections: ${figure}`,
          'DECAPITATION_RESERVATION'
        );
      }
      return [{ ParameterKey: RESERVATION_PARAMETER, ParameterValue: String(n) }];
    }
    if (deployed.includes(RESERVATION_PARAMETER)) {
      return [{ ParameterKey: RESERVATION_PARAMETER, UsePreviousValue: true }];
    }
    return []; // the template's default: nothing reserved, which every account allows
  }

  async describeStack() {
    const { DescribeStacksCommand } = cloudFormationCommands();
    const client = await this.provider.getCloudFormationClient();
    const stackName = this.provider.naming.getStackName();
    try {
      const answer = await client.send(new DescribeStacksCommand({ StackName: stackName }));
      return (answer.Stacks || [])[0] || {};
    } catch (error) {
      if (/does not exist/.test(String(error && error.message))) return {};
      throw error;
    }
  }

  async stackParameters() {
    const stack = await this.describeStack();
    return (stack.Parameters || []).map((p) => p.ParameterKey);
  }

  async topicSubscriptions(topicArn) {
    const { SNSClient, ListSubscriptionsByTopicCommand } = require('@aws-sdk/client-sns');
    const client = new SNSClient(await this.provider.getAwsSdkV3Config());
    const found = [];
    let NextToken;
    do {
      const page = await client.send(
        new ListSubscriptionsByTopicCommand({ TopicArn: topicArn, NextToken })
      );
      found.push(...(page.Subscriptions || []));
      NextToken = page.NextToken;
    } while (NextToken);
    return found;
  }

  warn(message) {
    if (this.log) this.log.warning(message);
  }

  async reportAlarmSubscribers() {
    let topic;
    let subscriptions;
    try {
      const outputs = (await this.describeStack()).Outputs || [];
      topic = (outputs.find((o) => o.OutputKey === 'AlarmTopicArn') || {}).OutputValue;
      subscriptions = topic ? await this.topicSubscriptions(topic) : [];
    } catch (error) {
      const why = (error && (error.name || error.message)) || String(error);
      this.warn(`Could not check whether an alarm reaches anyone (${why}). ${HOW_TO_SUBSCRIBE}`);
      return;
    }
    if (!topic) {
      this.warn('The stack has no alarm topic (AlarmTopicArn): no alarm reaches anyone.');
      return;
    }
    const confirmed = subscriptions.filter((s) => /^arn:/.test(s.SubscriptionArn || ''));
    const pending = subscriptions.filter((s) => s.SubscriptionArn === 'PendingConfirmation');
    if (confirmed.length > 0) {
      if (this.log) this.log.notice(`Alarms reach ${confirmed.length} subscriber(s) of ${topic}`);
      return;
    }
    if (pending.length > 0) {
      const who = pending.map((s) => s.Endpoint).join(', ');
      this.warn(
        `No alarm reaches anyone yet: ${who} has not confirmed the subscription to ${topic} ` +
          '(AWS e-mailed a link to confirm; until then alarms go nowhere).'
      );
      return;
    }
    this.warn(
      `No alarm reaches anyone: the alarm topic ${topic} has no subscriber. ${HOW_TO_SUBSCRIBE}`
    );
  }

  passTokenParameter() {
    if (this.parameter === null) {
      throw this.error('internal: no TelegramBotToken parameter was chosen', 'DECAPITATION_TOKEN');
    }
    this.serverless.service.provider.stackParameters = [this.parameter, ...this.extra];
  }
}

module.exports = DecapitationDeploy;
