-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN "sendingUntil" TIMESTAMP(3);
