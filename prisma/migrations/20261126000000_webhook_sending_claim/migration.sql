-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN "sendingUntil" DATETIME;
