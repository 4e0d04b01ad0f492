import { useTranslation } from 'react-i18next';
import { Form, Link, redirect, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/inventory.objects.new';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { Button } from '~/app/components/ui';
import { BoFields, boFromForm } from '~/app/components/objects/bo-form';
import { Card, useResultToast, type ActionResult } from '~/app/components/objects/shared';
import {
  createBusinessObject,
  customerOption,
  proposeSerialCode,
} from '~/core/business-objects/business-object.service';
import { priceListOptions } from '~/core/registers/options';
import { pageTitle } from '~/app/lib/page-title';
import { regionChoices } from '~/core/regions/region.service';

/** Inventory → objects → new: the object's fields; ?customerId= preselects its customer. */
export const middleware = guard({ permission: 'bo:edit' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const customerId = new URL(request.url).searchParams.get('customerId');
  return run(context, async (ctx) => ({
    priceLists: await priceListOptions(ctx),
    proposedSerial: (await proposeSerialCode(ctx, {})).id,
    customer: customerId ? await customerOption(ctx, customerId) : null,
    regions: await regionChoices(ctx),
  }));
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  try {
    const { id } = await run(context, (ctx) => createBusinessObject(ctx, { bo: boFromForm(form) }));
    return redirect(`/inventory/objects/${id}?created=1`);
  } catch (e) {
    return actionError(e);
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.newObject');

export default function NewObject({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('objects');
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state === 'submitting';
  useResultToast(result);
  return (
    <Card className="max-w-3xl">
      <Link to="/inventory/objects" className="text-sm text-blue-800 underline">
        ← {t('objects.back')}
      </Link>
      <h1 className="mt-2 mb-4 text-2xl font-semibold">{t('objects.new')}</h1>
      <Form method="post" noValidate className="grid gap-4">
        <BoFields
          isNew
          regions={loaderData.regions}
          values={
            loaderData.customer
              ? {
                  serialCode: '',
                  status: 'active',
                  model: null,
                  customer: loaderData.customer,
                  priceListId: null,
                  location: null,
                  location2: null,
                  location3: null,
                  description: null,
                  invoiceMarking: null,
                }
              : null
          }
          result={result}
          priceLists={loaderData.priceLists}
          proposedSerial={loaderData.proposedSerial}
        />
        <div className="flex gap-2">
          <Button type="submit" variant="primary" isPending={busy}>
            {t('objects.create')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
